import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// Lifted feedbacks keep G3-G7: the child's feedbacks, lifted at a key path,
/// as an optional child and by id, restart only when their query changes,
/// and a child whose state goes takes its effects with it, their late events
/// dropped. Each holds for a parent composed through closures and through
/// event cases.
@Suite(.runsLeftoverJobs) struct LiftedFeedbackGuaranteeTests {
  struct Probe {
    let harness = Harness()
    let gate = Gate()
    let activity = ActivityLog<Parent.State, Parent.Event>()
    let system: System<Parent.State, Parent.Event>

    init(_ form: CompositionForm) {
      system = System(
        initial: Parent.State(), feature: form.parentFeature(gate: gate), environment: harness.environment,
        monitor: activity.monitor)
    }

    func send(_ events: Parent.Event...) {
      for event in events { system.send(event) }
      harness.settle()
    }

    func started(_ prefix: String) -> [EffectID] { activity.started.filter { $0.feedback.name.hasPrefix(prefix) } }
    func cancelled(_ prefix: String) -> [EffectID] { activity.cancelled.filter { $0.feedback.name.hasPrefix(prefix) } }
  }

  @Test(
    "G4 a lifted query feedback restarts only when its query changes, not on the parent's other events",
    arguments: CompositionForm.allCases)
  func test_G4_liftedQueryRestartsOnlyOnChange(form: CompositionForm) {
    let probe = Probe(form)
    probe.send(.main(.load(1)), .other, .other, .main(.load(1)), .add(1), .open)
    #expect(probe.started("loader/").count == 1)
    probe.send(.main(.load(2)))
    #expect(probe.started("loader/").count == 2)
    #expect(probe.cancelled("loader/").count == 1)
    probe.gate.open()
    probe.harness.settle()
    // The replaced effect's late event never reached the reducer (G4).
    #expect(probe.system.state.main.loaded == [2])
  }

  @Test(
    "G4 an optional child that goes cancels its effects; their late events are dropped",
    arguments: CompositionForm.allCases)
  func test_G4_optionalChildGoneCancelsEffects(form: CompositionForm) {
    let probe = Probe(form)
    probe.send(.open, .optional(.load(5)))
    #expect(probe.started("optional/").count == 1)
    #expect(probe.system.runningTaskCount == 1)
    probe.send(.close)
    #expect(probe.cancelled("optional/").count == 1)
    probe.gate.open()
    probe.harness.settle()
    #expect(probe.system.state.optional == nil)
    #expect(!probe.activity.reducedEvents.contains(.optional(.loaded(5))))
    #expect(probe.activity.discarded.contains { $0.0 == .optional(.loaded(5)) })
    #expect(probe.system.runningTaskCount == 0)
  }

  @Test("G4 an optional child that comes back starts afresh", arguments: CompositionForm.allCases)
  func test_G4_optionalChildComesBack(form: CompositionForm) {
    let probe = Probe(form)
    probe.send(.open, .optional(.load(5)), .close, .open, .optional(.load(5)))
    #expect(probe.started("optional/").count == 2)
    probe.gate.open()
    probe.harness.settle()
    #expect(probe.system.state.optional?.loaded == [5])
  }

  @Test(
    "G6 G4 children by id: each child's effect is its own, named after the child; a removed child's is cancelled",
    arguments: CompositionForm.allCases)
  func test_G6_byIDChildrenEffects(form: CompositionForm) {
    let probe = Probe(form)
    probe.send(.add(1), .add(2), .add(3))
    probe.send(.item(1, .load(10)), .item(2, .load(20)), .item(3, .load(30)))
    let started = probe.started("items[id]/")
    #expect(started.count == 3)
    #expect(started.map(\.feedback.name).allSatisfy { $0 == "items[id]/load" })
    #expect(started.compactMap(\.trigger).sorted() == ["1", "2", "3"])
    // An equal query for one child restarts nothing; another child's event leaves the others alone.
    probe.send(.item(2, .load(20)), .item(3, .load(31)))
    #expect(probe.started("items[id]/").count == 4)
    #expect(probe.cancelled("items[id]/").compactMap(\.trigger) == ["3"])
    probe.send(.remove(1))
    #expect(probe.cancelled("items[id]/").compactMap(\.trigger) == ["3", "1"])
    probe.gate.open()
    probe.harness.settle()
    #expect(probe.system.state.items[1] == nil)
    #expect(probe.system.state.items[2]?.loaded == [20])
    #expect(probe.system.state.items[3]?.loaded == [31])
    #expect(probe.activity.discarded.map(\.0).contains(.item(1, .loaded(10))))
    #expect(probe.activity.discarded.map(\.0).contains(.item(3, .loaded(30))))
    #expect(probe.system.runningTaskCount == 0)
  }

  @Test("G9 stopping the parent cancels every child's effects", arguments: CompositionForm.allCases)
  func test_G9_stopCancelsChildren(form: CompositionForm) {
    let probe = Probe(form)
    probe.send(.add(1), .open, .item(1, .load(1)), .optional(.load(2)), .main(.load(3)))
    #expect(probe.system.runningTaskCount == 3)
    probe.system.stop()
    probe.gate.open()
    probe.harness.settle()
    #expect(probe.system.runningTaskCount == 0)
    #expect(probe.system.state.items[1]?.loaded == [])
  }

  @Test("G3 a lifted feedback sees its child's state before the next event: an immediate effect chains")
  func test_G3_liftedImmediateEffects() {
    enum Counter {
      static let feature = Feature<Int, Int>(
        name: "counter", reducer: Reducer(reduceReturning: +),
        feedbacks: [.predicate({ $0 < 5 }, whenFalse: .keepRunning) { _ in .send(1) }])
    }
    struct Box: Sendable, Equatable { var count: Int? = 10 }
    let path = EventPath<Int, Int>.identity
    let system = System(initial: Box(), feature: Counter.feature.lifted(optional: \Box.count, event: path).feature)
    #expect(system.state.count == 10)
    // 0 is below five: the lifted predicate sends 1 at once, and sees each
    // state it produced before the next event, until five.
    system.send(-10)
    #expect(system.state.count == 5)
  }

  @Test("G5 a lifted predicate feedback is cancelled when its optional child goes")
  func test_G5_liftedPredicateCancelledWhenChildGoes() {
    struct Box: Sendable, Equatable { var child: Int? }
    enum Event: Sendable, Equatable { case child(Int), show, hide }
    let harness = Harness()
    let gate = Gate()
    let child = Feature<Int, Int>(
      name: "child", reducer: Reducer(reduceReturning: +),
      feedbacks: [
        .predicate({ $0 == 1 }, whenFalse: .keepRunning) { _ in
          .run { send in
            await gate.wait()
            send(100)
          }
        }
      ])
    let toChild = EventPath<Event, Int>(embed: Event.child, extract: { if case .child(let n) = $0 { n } else { nil } })
    let feature = Feature<Box, Event>.combine(
      name: "box",
      Feature(
        name: "box",
        reducer: Reducer { box, event in
          switch event {
          case .show: box.child = 0
          case .hide: box.child = nil
          case .child: break
          }
        }),
      child.lifted(optional: \.child, event: toChild).feature)
    let system = System(initial: Box(), feature: feature, environment: harness.environment)
    system.send(.show)
    system.send(.child(1))
    harness.settle()
    #expect(system.runningTaskCount == 1)
    system.send(.hide)
    gate.open()
    harness.settle()
    #expect(system.runningTaskCount == 0)
    system.send(.show)
    #expect(system.state.child == 0)
  }

  @Test("G4 lifted feedbacks of a feature lifted three levels deep keep their query semantics and names")
  func test_G4_deepLifting() {
    let gate = Gate()
    let harness = Harness()
    let same = EventPath<Parent.Event, Parent.Event>.identity
    let deep = Parent.feature(gate: gate)
      .lifted(state: \Wrapped<Parent.State>.inner, event: same).feature
      .lifted(state: \Wrapped<Wrapped<Parent.State>>.inner, event: same).feature
      .lifted(state: \Wrapped<Wrapped<Wrapped<Parent.State>>>.inner, event: same).feature
    let activity = ActivityLog<Wrapped<Wrapped<Wrapped<Parent.State>>>, Parent.Event>()
    let system = System(
      initial: Wrapped(inner: Wrapped(inner: Wrapped(inner: Parent.State()))), feature: deep,
      environment: harness.environment, monitor: activity.monitor)
    system.send(.main(.load(1)))
    system.send(.other)
    system.send(.main(.load(1)))
    system.send(.add(4))
    system.send(.item(4, .load(2)))
    harness.settle()
    #expect(activity.started.count == 2)
    #expect(
      activity.started.map(\.feedback.name) == [
        "parent/parent/parent/loader/load", "parent/parent/parent/items[id]/load",
      ])
    gate.open()
    harness.settle()
    #expect(system.state.inner.inner.inner.main.loaded == [1])
    #expect(system.state.inner.inner.inner.items[4]?.loaded == [2])
  }
}

struct Wrapped<Inner: Sendable & Equatable>: Sendable, Equatable {
  var inner: Inner
}
