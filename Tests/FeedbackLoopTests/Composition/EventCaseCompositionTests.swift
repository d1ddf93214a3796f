import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// Features composed through event cases (`LiftedFeature`,
/// `OptionalLiftedFeature`, `LiftedFeaturesByID`, `CombinedFeatures`) reduce
/// as the same features composed through closures do, to the byte and to the
/// discard, wherever the children are: at offset 0 or not, behind computed
/// properties, under optionals, by id.
@Suite(.runsLeftoverJobs) struct EventCaseCompositionTests {
  /// A level whose child is not at offset 0, so that a wrong sum of offsets
  /// lands on `before` or past the child.
  struct Padded<Inner: Sendable & Equatable>: Sendable, Equatable {
    var before = 0
    var flag = false
    var inner: Inner
    var after = 0
  }

  /// A level whose child is behind a computed property: no offset.
  struct Computed<Inner: Sendable & Equatable>: Sendable, Equatable {
    var stored: Inner
    var inner: Inner {
      get { stored }
      set { stored = newValue }
    }
  }

  typealias Deep = Padded<Computed<Padded<Padded<Parent.State>>>>

  static let sameEvent = EventPath<Parent.Event, Parent.Event>.identity
  static let sameNumber = EventPath<Int, Int>.identity

  /// Every kind of parent event, some for children that do not exist.
  static func randomEvents(count: Int, seed: UInt64) -> [Parent.Event] {
    var generator = SeededGenerator(seed: seed)
    let loaderEvents: [Loader.Event] = [.load(1), .load(2), .loaded(3), .clear]
    return (0..<count).map { _ in
      let loader = loaderEvents.randomElement(using: &generator)!
      let id = Int.random(in: 0..<4, using: &generator)
      switch Int.random(in: 0..<8, using: &generator) {
      case 0: return .main(loader)
      case 1: return .optional(loader)
      case 2: return .item(id, loader)
      case 3: return .open
      case 4: return .close
      case 5: return .add(id)
      case 6: return .remove(id)
      default: return .other
      }
    }
  }

  @Test("the two forms reduce every event alike, discards included", arguments: [1, 2, 3] as [UInt64])
  func formsReduceAlike(seed: UInt64) {
    let closures = Parent.feature(gate: Gate())
    let cases = Parent.composedFeature(gate: Gate())
    var byClosures = Parent.State()
    var byCases = Parent.State()
    for event in Self.randomEvents(count: 400, seed: seed) {
      let closureDiscard = closures.reduceReportingDiscards(&byClosures, event)
      let caseDiscard = cases.reduceReportingDiscards(&byCases, event)
      #expect(byCases == byClosures, "after \(event)")
      #expect(caseDiscard == closureDiscard, "after \(event)")
    }
    #expect(byCases.items.count > 0)
  }

  @Test("lifted four levels deep, at offsets other than 0 and through a computed property, alike")
  func deepLiftsReduceAlike() {
    let closures = Parent.feature(gate: Gate())
      .lifted(state: \Padded<Parent.State>.inner, event: Self.sameEvent).feature
      .lifted(state: \Padded<Padded<Parent.State>>.inner, event: Self.sameEvent).feature
      .lifted(state: \Computed<Padded<Padded<Parent.State>>>.inner, event: Self.sameEvent).feature
      .lifted(state: \Deep.inner, event: Self.sameEvent).feature
    let cases = Parent.composedFeature(gate: Gate())
      .lifted(state: \Padded<Parent.State>.inner, event: SameEvent())
      .lifted(state: \Padded<Padded<Parent.State>>.inner, event: SameEvent())
      .lifted(state: \Computed<Padded<Padded<Parent.State>>>.inner, event: SameEvent())
      .lifted(state: \Deep.inner, event: SameEvent())
    let start = Deep(inner: Computed(stored: Padded(inner: Padded(inner: Parent.State()))))
    var byClosures = start
    var byCases = start
    for event in Self.randomEvents(count: 300, seed: 7) {
      let closureDiscard = closures.reduceReportingDiscards(&byClosures, event)
      let caseDiscard = cases.reduceReportingDiscards(&byCases, event)
      #expect(byCases == byClosures, "after \(event)")
      #expect(caseDiscard == closureDiscard, "after \(event)")
    }
    // The padding around each level is untouched.
    #expect(byCases.before == 0 && byCases.after == 0 && !byCases.flag)
    #expect(byCases.inner.stored.before == 0 && byCases.inner.stored.inner.after == 0)
  }

  @Test("a chain of lifts at stored properties reaches its state through each level's offset")
  func storedLiftsSumTheirOffsets() {
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
    let once = counter.lifted(state: \Padded<Int>.inner, event: SameEvent())
    let twice = once.lifted(state: \Padded<Padded<Int>>.inner, event: SameEvent())
    let outer = MemoryLayout<Padded<Padded<Int>>>.offset(of: \Padded<Padded<Int>>.inner)!
    let inner = MemoryLayout<Padded<Int>>.offset(of: \Padded<Int>.inner)!
    #expect(inner > 0)
    #expect(once.offset == inner)
    #expect(twice.offset == outer && twice.child.offset == inner)
    var state = Padded(inner: Padded(inner: 0))
    _ = twice.reduceReportingDiscards(&state, 5)
    #expect(state == Padded(inner: Padded(inner: 5)))
    let behindComputed = counter.lifted(state: \Computed<Int>.inner, event: SameEvent())
      .lifted(state: \Padded<Computed<Int>>.inner, event: SameEvent())
    #expect(behindComputed.child.offset == nil)
    var computed = Padded(inner: Computed(stored: 1))
    _ = behindComputed.reduceReportingDiscards(&computed, 2)
    #expect(computed.inner.stored == 3)
  }

  @Test("a feature lifted through closures at stored properties, level after level, reaches its child in one path")
  func closureLiftsComposeOneReach() {
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
    let once = counter.lifted(state: \Padded<Int>.inner, event: Self.sameNumber).feature
    let twice = once.lifted(state: \Padded<Padded<Int>>.inner, event: Self.sameNumber).feature
    let inner = MemoryLayout<Padded<Int>>.offset(of: \Padded<Int>.inner)!
    let outer = MemoryLayout<Padded<Padded<Int>>>.offset(of: \Padded<Padded<Int>>.inner)!
    #expect(inner > 0)
    #expect(once.reducer.reach?.offset == inner)
    #expect(twice.reducer.reach?.offset == outer + inner)
    var state = Padded(inner: Padded(inner: 1))
    #expect(twice.reducer.reduceReportingDiscards(&state, 5) == nil)
    #expect(state == Padded(inner: Padded(inner: 6)))
    // A computed level has no offset: no reach through it; one again above.
    let behindComputed = once.lifted(state: \Computed<Padded<Int>>.inner, event: Self.sameNumber).feature
    #expect(behindComputed.reducer.reach == nil)
    let above = behindComputed.lifted(state: \Padded<Computed<Padded<Int>>>.inner, event: Self.sameNumber).feature
    #expect(above.reducer.reach?.offset == MemoryLayout<Padded<Computed<Padded<Int>>>>.offset(of: \.inner)!)
    var computed = Padded(inner: Computed(stored: Padded(inner: 2)))
    above.reducer.reduce(&computed, 3)
    #expect(computed == Padded(inner: Computed(stored: Padded(inner: 5))))
    // A reducer replaced after the lift brings no reach: lifted again, the
    // new reducer runs, not the path of the one it replaced.
    var replaced = once
    replaced.reducer = Reducer(reduceReturning: { padded, step in Padded(inner: padded.inner - step) })
    let afterReplacing = replaced.lifted(state: \Padded<Padded<Int>>.inner, event: Self.sameNumber).feature
    #expect(afterReplacing.reducer.reach?.offset == outer)
    var replacedState = Padded(inner: Padded(inner: 10))
    afterReplacing.reducer.reduce(&replacedState, 3)
    #expect(replacedState == Padded(inner: Padded(inner: 7)))
  }

  @Test("an event that a level of a closure chain does not extract leaves every level alone")
  func closureReachLeavesOtherEventsAlone() throws {
    enum Outer: Sendable, Equatable { case inner(Int), other }
    let toInner = EventPath<Outer, Int>(embed: Outer.inner, extract: { if case .inner(let n) = $0 { n } else { nil } })
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
    let chain = counter.lifted(state: \Padded<Int>.inner, event: toInner).feature
      .lifted(state: \Padded<Padded<Int>>.inner, event: EventPath<Outer, Outer>.identity).feature
      .lifted(state: \Padded<Padded<Padded<Int>>>.inner, event: EventPath<Outer, Outer>.identity).feature
    let reach = try #require(chain.reducer.reach)
    var state = Padded(inner: Padded(inner: Padded(inner: 7)))
    #expect(chain.reducer.reduceReportingDiscards(&state, .other) == nil)
    #expect(state == Padded(inner: Padded(inner: Padded(inner: 7))))
    chain.reducer.reduce(&state, .inner(-7))
    #expect(state == Padded(inner: Padded(inner: Padded(inner: 0))))
    // Lifted again as an event case, and erased: the reach goes on.
    let cased = chain.lifted(state: \Padded<Padded<Padded<Padded<Int>>>>.inner, event: SameEvent()).feature
    let outerOffset = try #require(MemoryLayout<Padded<Padded<Padded<Padded<Int>>>>>.offset(of: \.inner))
    #expect(cased.reducer.reach?.offset == reach.offset + outerOffset)
    var outer = Padded(inner: state)
    cased.reducer.reduce(&outer, .inner(4))
    #expect(outer.inner.inner.inner.inner == 4 && outer.before == 0 && outer.after == 0)
  }

  @Test("a lift over an optional or by-id child reaches that child's own state")
  func liftsOverOptionalAndByID() {
    struct Holder: Sendable, Equatable {
      var before = 0
      var optional: Padded<Int>?
      var children: TrackedDictionary<Int, Int> = [:]
    }
    enum HolderEvent: Sendable, Equatable { case optional(Int), child(Int, Int) }
    struct ToOptional: EventCase {
      func embed(_ event: Int) -> HolderEvent { .optional(event) }
      func extract(_ event: HolderEvent) -> Int? { if case .optional(let event) = event { event } else { nil } }
    }
    struct ToChild: ChildEventCase {
      func embed(_ id: Int, _ event: Int) -> HolderEvent { .child(id, event) }
      func extract(_ event: HolderEvent) -> (Int, Int)? {
        if case .child(let id, let event) = event { (id, event) } else { nil }
      }
    }
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
    let holder = counter.lifted(state: \Padded<Int>.inner, event: SameEvent())
      .lifted(optional: \Holder.optional, event: ToOptional())
      .combined(with: counter.lifted(children: \Holder.children, event: ToChild()))
      .lifted(state: \Padded<Holder>.inner, event: SameEvent())
    var state = Padded(inner: Holder())
    #expect(holder.reduceReportingDiscards(&state, .optional(1))?.contains("is nil") == true)
    #expect(holder.reduceReportingDiscards(&state, .child(3, 1))?.contains("no child 3") == true)
    state.inner.optional = Padded(inner: 10)
    state.inner.children[3] = 20
    #expect(holder.reduceReportingDiscards(&state, .optional(1)) == nil)
    #expect(holder.reduceReportingDiscards(&state, .child(3, 2)) == nil)
    #expect(state.inner.optional == Padded(inner: 11))
    #expect(state.inner.children[3] == 22)
    #expect(state.before == 0 && state.inner.before == 0 && state.after == 0)
  }

  @Test("combined features run in order, their discards merged, their feedbacks first then second")
  func combinedRunInOrder() {
    struct Pair: Sendable, Equatable {
      var log: [String] = []
      var first: Int?
      var second: Int?
    }
    func logging(_ name: String) -> Feature<Pair, Int> {
      Feature(
        name: name, reducer: Reducer { pair, event in pair.log.append("\(name) \(event) after \(pair.log.count)") },
        feedbacks: [.query({ $0.log.count }, name: name) { _ in .none }])
    }
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
    let both = logging("a").combined(with: logging("b"))
      .combined(with: counter.lifted(optional: \Pair.first, event: SameEvent()))
      .combined(with: counter.lifted(optional: \Pair.second, event: SameEvent()))
    var pair = Pair()
    let discards = both.reduceReportingDiscards(&pair, 1)
    #expect(pair.log == ["a 1 after 0", "b 1 after 1"])
    #expect(discards?.components(separatedBy: "; ").count == 2)
    #expect(discards?.contains("first") == true && discards?.contains("second") == true)
    pair.first = 0
    #expect(both.reduceReportingDiscards(&pair, 2)?.contains("first") == false)
    #expect(pair.first == 2)
    #expect(both.name == "a")
    #expect(logging("a").combined(with: logging("b"), name: "both").name == "both")
    #expect(both.feedbacks.map(\.name) == ["a", "b"])
  }

  @Test("G4 lifted feedbacks of a feature lifted three levels deep through cases keep their queries and names")
  func test_G4_deepLiftingThroughCases() {
    let gate = Gate()
    let harness = Harness()
    let deep = Parent.composedFeature(gate: gate)
      .lifted(state: \Wrapped<Parent.State>.inner, event: SameEvent())
      .lifted(state: \Wrapped<Wrapped<Parent.State>>.inner, event: SameEvent())
      .lifted(state: \Wrapped<Wrapped<Wrapped<Parent.State>>>.inner, event: SameEvent())
    let activity = ActivityLog<Wrapped<Wrapped<Wrapped<Parent.State>>>, Parent.Event>()
    // The system takes the composed type itself, not a Feature.
    let system = System(
      initial: Wrapped(inner: Wrapped(inner: Wrapped(inner: Parent.State()))), feature: deep,
      environment: harness.environment, monitor: activity.monitor)
    system.send(.main(.load(1)))
    system.send(.other)
    system.send(.main(.load(1)))
    system.send(.add(4))
    system.send(.item(4, .load(2)))
    system.send(.item(5, .load(2)))
    harness.settle()
    #expect(
      activity.started.map(\.feedback.name) == [
        "parent/parent/parent/loader/load", "parent/parent/parent/items[id]/load",
      ])
    #expect(activity.discarded.map(\.0) == [.item(5, .load(2))])
    gate.open()
    harness.settle()
    #expect(system.state.inner.inner.inner.main.loaded == [1])
    #expect(system.state.inner.inner.inner.items[4]?.loaded == [2])
    system.stop()
  }

  @Test("a feature composed through cases, erased to a Feature, lifts on through closures")
  func erasedThenLiftedThroughClosures() {
    let erased: Feature<Parent.State, Parent.Event> = Parent.composedFeature(gate: Gate()).feature
    let lifted = erased.lifted(state: \Padded<Parent.State>.inner, event: Self.sameEvent).feature
    var state = Padded(inner: Parent.State())
    lifted.reducer.reduce(&state, .main(.load(4)))
    #expect(state.inner.main.request == 4)
    #expect(lifted.feedbacks.map(\.name) == erased.feedbacks.map { "parent/\($0.name)" })
  }
}

/// SplitMix64: the same events for a seed on every run and platform.
private struct SeededGenerator: RandomNumberGenerator {
  var state: UInt64

  init(seed: UInt64) { state = seed }

  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var mixed = state
    mixed = (mixed ^ (mixed >> 30)) &* 0xBF58_476D_1CE4_E5B9
    mixed = (mixed ^ (mixed >> 27)) &* 0x94D0_49BB_1331_11EB
    return mixed ^ (mixed >> 31)
  }
}
