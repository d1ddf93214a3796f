import Dispatch
import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// Hostile cases for the features the compiler composes: every
/// shape mixed several levels deep, at offsets other than 0, through tuple
/// elements, generic levels, classes, zero-sized states, observed and
/// computed properties, user types conforming to `FeatureProtocol`; each
/// compared with the same tree composed through closures, which is the
/// reference: same states, same discards, same feedback names, same effects
/// started and cancelled, same monitor activity.
@Suite(.runsLeftoverJobs) struct EventCaseRedTeamTests {
  // MARK: - Equivalence of the two forms over a deep mix of the four shapes

  @Test(
    "the two forms reduce a deep mix of the four shapes alike, discards included", arguments: [11, 12, 13] as [UInt64])
  func deepMixReducesAlike(seed: UInt64) {
    let closures = RTRoot.feature(form: .closures, gate: Gate(), hook: .none)
    let cases = RTRoot.feature(form: .cases, gate: Gate(), hook: .none)
    var byClosures = RTRoot.State()
    var byCases = RTRoot.State()
    var generator = RTSeeded(seed: seed)
    var reached = 0
    for _ in 0..<600 {
      let event = RTRoot.Event.random(using: &generator)
      let closureDiscard = closures.reduceReportingDiscards(&byClosures, event)
      let caseDiscard = cases.reduceReportingDiscards(&byCases, event)
      // The first divergence only: every later state differs too.
      guard byCases == byClosures, caseDiscard == closureDiscard else {
        #expect(byCases == byClosures, "after \(event)")
        #expect(caseDiscard == closureDiscard, "after \(event)")
        return
      }
      if caseDiscard == nil { reached += 1 }
    }
    // The fuzz reached children at every shape, not only discards.
    #expect(reached > 100)
    #expect(byCases.main.inner.pair.1.count + byCases.boxed.leaf.count + byCases.viaClassRoot.leaf.count > 0)
    // The bytes around each child are only what the parent's own reducer wrote.
    #expect(byCases.before == byClosures.before && byCases.main.before == 0 && byCases.main.after == 0)
  }

  @Test(
    "G3 G4 G6 the two forms run a deep mix in a system alike: states, effects started and cancelled, discards",
    arguments: [21, 22] as [UInt64])
  func test_G4_deepMixSystemsAlike(seed: UInt64) {
    let closures = RTProbe(form: .closures)
    let cases = RTProbe(form: .cases)
    var generator = RTSeeded(seed: seed)
    let events = (0..<300).map { _ in RTRoot.Event.random(using: &generator) }
    for probe in [closures, cases] {
      for event in events { probe.system.send(event) }
      probe.harness.settle()
    }
    #expect(cases.system.state == closures.system.state)
    #expect(cases.activity.started.map(\.feedback.name) == closures.activity.started.map(\.feedback.name))
    #expect(cases.activity.cancelled.map(\.feedback.name) == closures.activity.cancelled.map(\.feedback.name))
    #expect(cases.activity.discarded.map(\.0) == closures.activity.discarded.map(\.0))
    #expect(cases.activity.discarded.map { "\($0.1)" } == closures.activity.discarded.map { "\($0.1)" })
    #expect(cases.activity.reducedEvents == closures.activity.reducedEvents)
    #expect(cases.activity.started.count > 5 && cases.activity.cancelled.count > 0)
    #expect(Set(cases.activity.started.map(\.feedback.name)).count >= 4)
    for probe in [closures, cases] {
      probe.gate.open()
      probe.harness.settle()
    }
    #expect(cases.system.state == closures.system.state)
    #expect(cases.activity.finished.map(\.feedback.name) == closures.activity.finished.map(\.feedback.name))
    #expect(cases.activity.reducedEvents == closures.activity.reducedEvents)
    for probe in [closures, cases] {
      probe.system.stop()
      probe.harness.settle()
      #expect(probe.system.runningTaskCount == 0)
    }
  }

  @Test("G10 two systems on two threads share one composed feature: each reduces as the closure form does")
  func sharedComposedFeatureOnTwoThreads() {
    let shared = RTRoot.feature(form: .cases, gate: Gate(), hook: .none)
    let reference = RTRoot.feature(form: .closures, gate: Gate(), hook: .none)
    var generator = RTSeeded(seed: 31)
    // No loads: no effect runs, so the sends alone decide the states.
    let events = (0..<400).map { _ in RTRoot.Event.random(using: &generator) }.filter { !"\($0)".contains("load") }
    let logs = LogRecorder()
    let systems = (0..<2).map { _ in
      System(initial: RTRoot.State(), feature: shared, environment: SystemEnvironment(logger: logs.logger))
    }
    DispatchQueue.concurrentPerform(iterations: systems.count) { index in
      for event in events { systems[index].send(event) }
    }
    var expected = RTRoot.State()
    for event in events { _ = reference.reduceReportingDiscards(&expected, event) }
    #expect(events.count > 200)
    #expect(logs.messages.contains { $0.hasPrefix("event discarded: ") }, "the discards are logged")
    for system in systems {
      #expect(system.state == expected)
      system.stop()
    }
  }

  @Test("the two forms name the same feedbacks, in the same order")
  func feedbackNamesAlike() {
    let closures = RTRoot.feature(form: .closures, gate: Gate(), hook: .none)
    let cases = RTRoot.feature(form: .cases, gate: Gate(), hook: .none)
    #expect(cases.name == closures.name)
    #expect(cases.feedbacks.map(\.name) == closures.feedbacks.map(\.name))
    #expect(cases.feedbacks.count == 12)
  }

  // MARK: - Observed and computed properties: a discard changes nothing

  /// A parent whose optional child is observed: each write to it counts.
  struct Observed: Sendable, Equatable {
    var writes = 0
    var child: Int? { didSet { writes += 1 } }
  }

  /// A selection kept as an id, with the selected child computed from it: a
  /// write of `nil` clears the selection.
  struct Selection: Sendable, Equatable {
    var items: [Int: Int] = [:]
    var selectedID: Int?
    var selected: Int? {
      get { selectedID.flatMap { items[$0] } }
      set {
        guard let id = selectedID else { return }
        if let newValue { items[id] = newValue } else { selectedID = nil }
      }
    }
  }

  @Test("an event for an optional child that is nil writes nothing back, through an observed property")
  func optionalDiscardDoesNotWriteObservedProperty() {
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
    let closures = counter.lifted(optional: \Observed.child, event: EventPath<Int, Int>.identity).feature
    let cases = counter.lifted(optional: \Observed.child, event: SameEvent())
    var byClosures = Observed()
    var byCases = Observed()
    let closureDiscard = closures.reduceReportingDiscards(&byClosures, 1)
    let caseDiscard = cases.reduceReportingDiscards(&byCases, 1)
    #expect(caseDiscard == closureDiscard)
    #expect(byClosures.writes == 0)
    #expect(byCases.writes == 0, "a discarded event ran the property's observer")
    #expect(byCases == byClosures)
    byCases.child = 1
    byClosures.child = 1
    _ = closures.reduceReportingDiscards(&byClosures, 2)
    _ = cases.reduceReportingDiscards(&byCases, 2)
    #expect(byCases == byClosures)
    #expect(byCases.child == 3)
  }

  @Test("an event for an optional child that is nil leaves a computed selection alone")
  func optionalDiscardDoesNotClearComputedSelection() {
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
    let cases = counter.lifted(optional: \Selection.selected, event: SameEvent())
    let closures = counter.lifted(optional: \Selection.selected, event: EventPath<Int, Int>.identity).feature
    // Selected 5, whose item is not loaded yet.
    var byCases = Selection(items: [:], selectedID: 5)
    var byClosures = byCases
    let caseDiscard = cases.reduceReportingDiscards(&byCases, 1)
    _ = closures.reduceReportingDiscards(&byClosures, 1)
    #expect(caseDiscard?.contains("is nil") == true)
    #expect(byClosures.selectedID == 5)
    #expect(byCases.selectedID == 5, "a discarded event cleared the selection")
    // The item arrives: the selection shows it, and events reach it.
    byCases.items[5] = 10
    #expect(cases.reduceReportingDiscards(&byCases, 1) == nil)
    #expect(byCases.items[5] == 11)
  }

  /// A parent whose children by id are observed: each write to them counts.
  struct ObservedChildren: Sendable, Equatable {
    var writes = 0
    var children: TrackedDictionary<Int, Int> = [:] { didSet { writes += 1 } }
  }

  struct ToObservedChild: ChildEventCase {
    func embed(_ id: Int, _ event: Int) -> (Int, Int) { (id, event) }
    func extract(_ event: (Int, Int)) -> (Int, Int)? { event }
  }

  @Test("an event for an id that is not there writes nothing back, through an observed property, in both forms")
  func byIDDiscardDoesNotWriteObservedProperty() {
    _ = ExpectedLiftWarnings.recorder
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
    let closures = counter.lifted(children: \ObservedChildren.children, event: ChildEventPath(ToObservedChild()))
      .feature
    let cases = counter.lifted(children: \ObservedChildren.children, event: ToObservedChild())
    var byClosures = ObservedChildren()
    var byCases = ObservedChildren()
    let closureDiscard = closures.reduceReportingDiscards(&byClosures, (3, 1))
    let caseDiscard = cases.reduceReportingDiscards(&byCases, (3, 1))
    #expect(caseDiscard == closureDiscard)
    #expect(caseDiscard?.contains("no child 3") == true)
    #expect(byClosures.writes == 0, "a discarded event ran the property's observer (closures)")
    #expect(byCases.writes == 0, "a discarded event ran the property's observer (cases)")
    byClosures.children[3] = 10
    byCases.children[3] = 10
    #expect(closures.reduceReportingDiscards(&byClosures, (3, 1)) == nil)
    #expect(cases.reduceReportingDiscards(&byCases, (3, 1)) == nil)
    #expect(byCases == byClosures)
    #expect(byCases.children[3] == 11 && byCases.writes == 2)
  }

  // MARK: - Shapes of key paths and levels

  @Test("a tuple element, a zero-sized state and a class-typed level reach the right place")
  func tupleEmptyAndClassLevels() {
    struct Holder: Sendable, Equatable {
      var flag: UInt8 = 7
      var pair: (UInt8, Int, UInt8) = (1, 2, 3)
      var empty = RTEmpty()
      var trailing: UInt16 = 9
      static func == (lhs: Holder, rhs: Holder) -> Bool {
        lhs.flag == rhs.flag && lhs.pair == rhs.pair && lhs.trailing == rhs.trailing
      }
    }
    let pings = Log<Int>()
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
    let empty = Feature<RTEmpty, Int>(name: "empty", reducer: Reducer { _, event in pings.append(event) })
    let tuple = counter.lifted(state: \Holder.pair.1, event: SameEvent())
      .lifted(state: \RTPad<Holder>.inner, event: SameEvent())
    #expect(tuple.offset != nil && tuple.offset! > 0)
    let zero = empty.lifted(state: \Holder.empty, event: SameEvent())
      .lifted(state: \RTPad<Holder>.inner, event: SameEvent())
    #expect(zero.offset != nil && zero.child.offset != nil)
    var state = RTPad(inner: Holder())
    #expect(tuple.reduceReportingDiscards(&state, 40) == nil)
    #expect(zero.reduceReportingDiscards(&state, 3) == nil)
    #expect(state.inner.pair == (1, 42, 3))
    #expect(state.inner.flag == 7 && state.inner.trailing == 9 && state.before == 0 && state.after == 0)
    #expect(pings.entries == [3])

    // A level through a class: no offset, so the key path; the class's
    // storage is written, the struct around it left alone.
    let box = RTBox()
    let throughClass = counter.lifted(state: \RTBox.leaf.count, event: SameEvent())
      .lifted(state: \RTPad<RTBox>.inner, event: SameEvent())
    #expect(throughClass.child.offset == nil)
    var holder = RTPad(inner: box)
    #expect(throughClass.reduceReportingDiscards(&holder, 5) == nil)
    #expect(box.leaf.count == 5 && holder.before == 0 && holder.after == 0)
    // A stored lift under a level through a class reference.
    let under = counter.lifted(state: \RTPad<Int>.inner, event: SameEvent())
      .lifted(state: \RTBox.padded, event: SameEvent())
      .lifted(state: \RTPad<RTBox>.inner, event: SameEvent())
    #expect(under.child.offset == nil)
    #expect(under.reduceReportingDiscards(&holder, 6) == nil)
    #expect(box.padded.inner == 6 && box.padded.before == 0 && box.padded.after == 0)
  }

  /// Doubles what is stored through it, so that a lift that bypassed the
  /// wrapper would show.
  @propertyWrapper struct Doubled: Sendable, Equatable {
    var stored: Int
    init(wrappedValue: Int) { stored = wrappedValue * 2 }
    var wrappedValue: Int {
      get { stored / 2 }
      set { stored = newValue * 2 }
    }
  }

  struct Paths: Sendable, Equatable {
    var flag: UInt8 = 1
    var list = [10, 20, 30]
    @Doubled var wrapped = 5
    var inner: RTPad<Int?>? = RTPad(inner: 1)
    var wrappedStorage: Int { _wrapped.stored }
  }

  @Test("array subscripts, property wrappers and force unwraps: no offset, the key path, alike in both forms")
  func keyPathsWithoutOffsets() {
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
    let elementByCases = counter.lifted(state: \Paths.list[1], event: SameEvent())
      .lifted(state: \RTPad<Paths>.inner, event: SameEvent())
    let wrappedByCases = counter.lifted(state: \Paths.wrapped, event: SameEvent())
      .lifted(state: \RTPad<Paths>.inner, event: SameEvent())
    let chainedByCases = counter.lifted(optional: \Paths.inner!.inner, event: SameEvent())
      .lifted(state: \RTPad<Paths>.inner, event: SameEvent())
    let elementByClosures = counter.lifted(state: \Paths.list[1], event: EventPath.identity).feature
      .lifted(state: \RTPad<Paths>.inner, event: EventPath.identity).feature
    let wrappedByClosures = counter.lifted(state: \Paths.wrapped, event: EventPath.identity).feature
      .lifted(state: \RTPad<Paths>.inner, event: EventPath.identity).feature
    let chainedByClosures = counter.lifted(optional: \Paths.inner!.inner, event: EventPath.identity).feature
      .lifted(state: \RTPad<Paths>.inner, event: EventPath.identity).feature
    #expect(elementByCases.child.offset == nil && wrappedByCases.child.offset == nil)
    var byCases = RTPad(inner: Paths())
    var byClosures = byCases
    for event in [1, 2] {
      #expect(
        elementByCases.reduceReportingDiscards(&byCases, event)
          == elementByClosures.reducer.reduceReportingDiscards(&byClosures, event))
      #expect(
        wrappedByCases.reduceReportingDiscards(&byCases, event)
          == wrappedByClosures.reducer.reduceReportingDiscards(&byClosures, event))
      #expect(
        chainedByCases.reduceReportingDiscards(&byCases, event)
          == chainedByClosures.reducer.reduceReportingDiscards(&byClosures, event))
      #expect(byCases == byClosures)
    }
    #expect(byCases.inner.list == [10, 23, 30])
    #expect(byCases.inner.wrapped == 8 && byCases.inner.wrappedStorage == 16)
    #expect(byCases.inner.inner?.inner == 4)
    // Through a force unwrap to an optional that is nil: discarded alike.
    byCases.inner.inner?.inner = nil
    byClosures.inner.inner?.inner = nil
    let discard = chainedByCases.reduceReportingDiscards(&byCases, 1)
    #expect(discard == chainedByClosures.reducer.reduceReportingDiscards(&byClosures, 1))
    #expect(discard?.contains("is nil") == true)
    #expect(byCases == byClosures && byCases.inner.inner?.inner == nil)
  }

  @Test("generic levels whose layout depends on the type argument sum the right offsets")
  func genericLevelsSumTheRightOffsets() {
    func check<Filler: Sendable & Equatable>(_ filler: Filler) {
      let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
      let lifted = counter.lifted(state: \RTGenericLevel<Filler, Int>.value, event: SameEvent())
        .lifted(state: \RTGenericLevel<Filler, RTGenericLevel<Filler, Int>>.value, event: SameEvent())
      let outer = MemoryLayout<RTGenericLevel<Filler, RTGenericLevel<Filler, Int>>>.offset(
        of: \RTGenericLevel<Filler, RTGenericLevel<Filler, Int>>.value)!
      let inner = MemoryLayout<RTGenericLevel<Filler, Int>>.offset(of: \RTGenericLevel<Filler, Int>.value)!
      #expect(lifted.offset == outer && lifted.child.offset == inner)
      var state = RTGenericLevel(filler: filler, value: RTGenericLevel(filler: filler, value: 1))
      #expect(lifted.reduceReportingDiscards(&state, 2) == nil)
      #expect(state.value.value == 3 && state.filler == filler && state.value.filler == filler)
      #expect(state.trailer == 0 && state.value.trailer == 0)
    }
    check(UInt8(1))
    check((0..<40).map { $0 })
    check("a string long enough to live outside the inline storage")
    check(RTPad(inner: (1...3).map { Double($0) }))
    check(RTEmpty())
  }

  @Test("references in states are retained and released alike through the pointer path")
  func referencesThroughThePointerPath() {
    let leaf = Feature<RTLeaf.State, RTLeaf.Event>(name: "leaf", reducer: RTLeaf.reducer(hook: .none))
    let deep = leaf.lifted(state: \RTPad<RTLeaf.State>.inner, event: SameEvent())
      .lifted(state: \RTPad<RTPad<RTLeaf.State>>.inner, event: SameEvent())
      .lifted(state: \RTPad<RTPad<RTPad<RTLeaf.State>>>.inner, event: SameEvent())
    #expect(deep.offset != nil)
    var state = RTPad(inner: RTPad(inner: RTPad(inner: RTLeaf.State())))
    weak var first: RTToken?
    do {
      _ = deep.reduceReportingDiscards(&state, .token(1))
      first = state.inner.inner.inner.token
      #expect(first?.value == 1)
    }
    let copy = state
    _ = deep.reduceReportingDiscards(&state, .token(2))
    // The copy still holds the first token; the state the second.
    #expect(copy.inner.inner.inner.token?.value == 1)
    #expect(state.inner.inner.inner.token?.value == 2)
    #expect(first != nil)
    _ = consume copy
    #expect(first == nil, "the first token leaked: a write through the pointer lost a release")
    for step in 0..<100 { _ = deep.reduceReportingDiscards(&state, .text("\(step)")) }
    #expect(state.inner.inner.inner.text.count == 190)
  }

  @Test("closure lifts with their own offset path, lifted on through cases at other offsets, and back, alike")
  func closureReachUnderCaseLifts() {
    typealias Three = RTPad<RTGenericLevel<UInt16, RTPad<Int>>>
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
    // Two closure levels at stored properties: a Reducer with its own reach.
    let byClosures = counter.lifted(state: \RTPad<Int>.inner, event: EventPath.identity).feature
      .lifted(state: \RTGenericLevel<UInt16, RTPad<Int>>.value, event: EventPath.identity).feature
    let mixed = byClosures.lifted(state: \Three.inner, event: SameEvent())
      .lifted(state: \RTPad<Three>.inner, event: SameEvent())
      .feature
      .lifted(state: \RTPad<RTPad<Three>>.inner, event: EventPath.identity).feature
    let reference = byClosures.lifted(state: \Three.inner, event: EventPath.identity).feature
      .lifted(state: \RTPad<Three>.inner, event: EventPath.identity).feature
      .lifted(state: \RTPad<RTPad<Three>>.inner, event: EventPath.identity).feature
    let start = RTPad(inner: RTPad(inner: RTPad(inner: RTGenericLevel(filler: UInt16(7), value: RTPad(inner: 1)))))
    var byMixed = start
    var byReference = start
    for event in [1, 2, 3] {
      #expect(mixed.reducer.reduceReportingDiscards(&byMixed, event) == nil)
      reference.reducer.reduce(&byReference, event)
    }
    #expect(byMixed == byReference)
    #expect(byMixed.inner.inner.inner.value.inner == 7)
    #expect(byMixed.inner.inner.inner.filler == 7 && byMixed.inner.inner.inner.trailer == 0)
  }

  @Test("four nested levels, each an optional child beside stored and by-id siblings, reduce every event")
  func nestedOptionalLevels() {
    // While the optional, by-id and combined reducers were forced inline,
    // this shape crashed the 6.3.1 optimizer in a release build (Mem2Reg).
    let deep = RTTree.level(RTTree.level(RTTree.level(RTTree.level(RTTree.leaf))))
    var state = RTNode(next: RTNode(next: RTNode(next: RTNode(next: RTLeaf.State()))))
    for step in 0..<300 {
      let event: RTNodeEvent<RTNodeEvent<RTNodeEvent<RTNodeEvent<RTLeaf.Event>>>> =
        switch step % 4 {
        case 0: .next(.next(.next(.next(.inc))))
        case 1: .next(.next(.kid(1, .inc)))
        case 2: .leaf(.text("a"))
        default: .next(.kid(2, .inc))
        }
      let discard = deep.reduceReportingDiscards(&state, event)
      #expect((discard != nil) == (step % 4 == 3), "after \(event)")
    }
    #expect(state.next?.next?.next?.next?.count == 75)
    #expect(state.next?.next?.kids[1]?.count == 75)
    #expect(state.leaf.text.count == 75)
    #expect(state.flag == 0 && state.next?.next?.next?.flag == 0)
  }

  // MARK: - Users' own conformers

  @Test("a user's type that keeps the defaults lifts like a Feature, several levels deep")
  func userConformerKeepingDefaults() {
    let doubling = RTDoubling()
    let cases = doubling.lifted(state: \RTPad<Int>.inner, event: SameEvent())
      .lifted(optional: \RTPad<RTPad<Int>?>.inner, event: SameEvent())
      .lifted(state: \RTPad<RTPad<RTPad<Int>?>>.inner, event: SameEvent())
    let closures = doubling.feature
      .lifted(state: \RTPad<Int>.inner, event: EventPath.identity).feature
      .lifted(optional: \RTPad<RTPad<Int>?>.inner, event: EventPath.identity).feature
      .lifted(state: \RTPad<RTPad<RTPad<Int>?>>.inner, event: EventPath.identity).feature
    var byCases = RTPad(inner: RTPad<RTPad<Int>?>(inner: nil))
    var byClosures = byCases
    for event in [1, -2, 3] {
      #expect(cases.reduceReportingDiscards(&byCases, event) == closures.reduceReportingDiscards(&byClosures, event))
    }
    byCases.inner.inner = RTPad(inner: 1)
    byClosures.inner.inner = RTPad(inner: 1)
    for event in [1, -2, 3] {
      #expect(cases.reduceReportingDiscards(&byCases, event) == closures.reduceReportingDiscards(&byClosures, event))
      #expect(byCases == byClosures)
    }
    #expect(byCases.inner.inner?.inner == ((1 * 2 + 1) * 2 - 2) * 2 + 3)
    #expect(cases.feedbacks.map(\.name) == closures.feedbacks.map(\.name))

    let byClass = RTDoublingClass().lifted(state: \RTPad<Int>.inner, event: SameEvent())
      .lifted(state: \RTPad<RTPad<Int>>.inner, event: SameEvent())
    var padded = RTPad(inner: RTPad(inner: 5))
    #expect(byClass.reduceReportingDiscards(&padded, -1) == "negative -1")
    #expect(padded.inner.inner == 9 && padded.before == 0 && padded.inner.after == 0)
  }

  @Test("a user's type cannot move where a lift writes: the offset is the library's, not a conformer's")
  func userConformerCannotMoveTheOffset() {
    struct Pair: Sendable, Equatable {
      var first = 0
      var second = 0
    }
    /// Claims an offset of its own, as a conformer could while the offset
    /// was a public requirement: its state's second field. Nothing reads
    /// these members now; while they were requirements, the reducer wrote
    /// `first` at `second`'s place.
    struct Claiming: FeatureProtocol {
      let claimed: Int?
      var name: String { "claiming" }
      var feedbacks: [LiftableFeedback<Pair, Int>] { [] }
      var _reach: Int? { claimed }
      func _reduceReached(_ reached: UnsafeMutableRawPointer, _ event: Int) -> String? { nil }
      func reduceReportingDiscards(_ state: inout Pair, _ event: Int) -> String? {
        state.first += event
        return nil
      }
    }
    for claimed in [MemoryLayout<Pair>.offset(of: \Pair.second), nil] {
      let alone = System(initial: Pair(), feature: Claiming(claimed: claimed))
      alone.send(2)
      #expect(alone.state == Pair(first: 2, second: 0))
      alone.stop()
      let lifted = Claiming(claimed: claimed).lifted(state: \RTPad<Pair>.inner, event: SameEvent())
        .lifted(state: \RTPad<RTPad<Pair>>.inner, event: SameEvent())
      #expect(lifted.offset != nil && lifted.child.offset != nil)
      var state = RTPad(inner: RTPad(inner: Pair()))
      #expect(lifted.reduceReportingDiscards(&state, 3) == nil)
      #expect(state.inner.inner == Pair(first: 3, second: 0) && state.inner.before == 0 && state.inner.after == 0)
      let system = System(initial: RTPad(inner: RTPad(inner: Pair())), feature: lifted)
      system.send(4)
      #expect(system.state.inner.inner == Pair(first: 4, second: 0))
      system.stop()
    }
  }

  @Test("a user's wrapper around a deep lift, keeping the defaults or forwarding both, lifts on at other offsets")
  func userWrappersAroundDeepLifts() {
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))
    let deep = counter.lifted(state: \RTPad<Int>.inner, event: SameEvent())
      .lifted(state: \RTPad<RTPad<Int>>.inner, event: SameEvent())
    let log = Log<Int>()
    let keeping = RTLogging(inner: deep, log: log)
      .lifted(state: \RTPad<RTPad<RTPad<Int>>>.inner, event: SameEvent())
    let forwarding = RTForwarding(inner: deep)
      .lifted(state: \RTPad<RTPad<RTPad<Int>>>.inner, event: SameEvent())
    #expect(forwarding.offset == keeping.offset && deep.offset != nil)
    var byKeeping = RTPad(inner: RTPad(inner: RTPad(inner: 1)))
    var byForwarding = byKeeping
    _ = keeping.reduceReportingDiscards(&byKeeping, 2)
    _ = forwarding.reduceReportingDiscards(&byForwarding, 2)
    #expect(byKeeping.inner.inner.inner == 3 && byForwarding.inner.inner.inner == 3)
    #expect(byKeeping == byForwarding && byKeeping.before == 0 && byKeeping.inner.inner.after == 0)
    #expect(log.entries == [2])
  }

  // MARK: - Reentrancy and stopping

  @Test(
    "G1 a child reducer three levels deep that sends to its own system, and to another, is queued alike in both forms")
  func test_G1_childReducerSendsAlike() {
    func run(_ form: CompositionForm) -> (RTRoot.State, [RTRoot.Event], [Int]) {
      let harness = Harness()
      let input = Input<RTRoot.Event>()
      // The hook reaches the input through a cell, cleared at the end: an
      // input keeps its system's core, which keeps the reducer and its hook.
      let inputRef = Ref<Input<RTRoot.Event>>()
      inputRef.value = input
      let other = System(initial: [Int](), reduce: { (list: inout [Int], value: Int) in list.append(value) })
      let hook = RTHook { event in
        switch event {
        case .echo(let value):
          if value > 0 { inputRef.value?.send(.main(.padded(.echo(value - 1)))) }
          other.send(value)
        default: break
        }
      }
      let activity = ActivityLog<RTRoot.State, RTRoot.Event>()
      let system = System(
        initial: RTRoot.State(), feature: RTRoot.feature(form: form, gate: Gate(), hook: hook),
        feedbacks: [.input(input)], environment: harness.environment, monitor: activity.monitor)
      system.send(.main(.padded(.echo(3))))
      system.send(.main(.pair(.inc)))
      harness.settle()
      let result = (system.state, activity.reducedEvents, other.state)
      system.stop()
      other.stop()
      inputRef.value = nil
      return result
    }
    let (closureState, closureEvents, closureOther) = run(.closures)
    let (caseState, caseEvents, caseOther) = run(.cases)
    #expect(caseState == closureState)
    #expect(caseEvents == closureEvents)
    #expect(caseOther == closureOther)
    #expect(caseOther == [3, 2, 1, 0])
    #expect(caseState.main.inner.padded.inner.count == 4)
    #expect(caseEvents.count == 5)
  }

  @Test("G9 a child reducer deep in a composed feature that stops its system: the rest is dropped alike")
  func test_G9_stopFromInsideComposedReduction() {
    func run(_ form: CompositionForm) -> (RTRoot.State, [RTRoot.Event], Int, Int) {
      let harness = Harness()
      let gate = Gate()
      let systemRef = Ref<System<RTRoot.State, RTRoot.Event>>()
      let hook = RTHook { event in
        if case .stop = event { systemRef.value?.stop() }
      }
      let activity = ActivityLog<RTRoot.State, RTRoot.Event>()
      let system = System(
        initial: RTRoot.State(), feature: RTRoot.feature(form: form, gate: gate, hook: hook),
        environment: harness.environment, monitor: activity.monitor)
      systemRef.value = system
      system.send(.add(1))
      system.send(.mid(1, .pair(.load(4))))
      system.send(.main(.pair(.load(5))))
      system.send(.main(.padded(.stop)))
      system.send(.main(.pair(.inc)))
      harness.settle()
      gate.open()
      harness.settle()
      let stopped = activity.discarded.filter { "\($0.1)".contains("topped") }.count
      let result = (system.state, activity.reducedEvents, system.runningTaskCount, stopped)
      systemRef.value = nil
      return result
    }
    let closures = run(.closures)
    let cases = run(.cases)
    #expect(cases.0 == closures.0)
    #expect(cases.1 == closures.1)
    #expect(cases.2 == 0 && closures.2 == 0)
    #expect(cases.3 == closures.3)
    #expect(cases.0.main.inner.pair.1.count == 0)
    #expect(cases.0.main.inner.pair.1.loaded.isEmpty)
  }

  // MARK: - The testing kit

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test("G4 the testing kit tests a feature composed through cases exhaustively")
  func testingKitOnComposedFeature() {
    let composed = RTTimed.parent
    let app = TestSystem(initial: RTTimed.Parent(inner: RTPad(inner: RTTimed.Holder())), feature: composed)
    app.send(.open) { $0.inner.inner.timer = RTTimed.State() }
    app.send(.timer(.tap)) {
      $0.inner.inner.timer?.taps = 1
      $0.inner.inner.timer?.isVisible = true
    }
    #expect(app.effectsInFlight.map(\.feedback.name) == ["timer/timer/timer/hide"])
    app.advance(by: .seconds(3))
    app.receive(.timer(.hide)) { $0.inner.inner.timer?.isVisible = false }
    app.send(.timer(.tap)) {
      $0.inner.inner.timer?.taps = 2
      $0.inner.inner.timer?.isVisible = true
    }
    app.send(.close) { $0.inner.inner.timer = nil }
    #expect(app.effectsInFlight.isEmpty)
    app.send(.timer(.tap))
    #expect(app.timeline.description.contains("no such child"))
    app.finish()
  }
}

// MARK: - The tree under test

/// A level that pads its child on both sides, generic so that its layout
/// depends on the child's type.
struct RTPad<Inner: Sendable>: Sendable {
  var before: UInt8 = 0
  var inner: Inner
  var after: UInt32 = 0
}

extension RTPad: Equatable where Inner: Equatable {}

/// A level whose child's offset depends on the filler's type.
struct RTGenericLevel<Filler: Sendable & Equatable, Value: Sendable & Equatable>: Sendable, Equatable {
  var filler: Filler
  var value: Value
  var trailer: UInt8 = 0
}

/// A state with no bytes.
struct RTEmpty: Sendable, Equatable {}

/// A reference held by a leaf, so that ARC runs through the pointer path.
final class RTToken: Sendable {
  let value: Int
  init(_ value: Int) { self.value = value }
}

/// A class level: its key paths have no offset.
final class RTBox: @unchecked Sendable, Equatable {
  // Sendable: each instance is written only by the reducer of the one system
  // (or the one test) that owns it, on one thread at a time.
  var leaf = RTLeaf.State()
  var padded = RTPad(inner: 0)

  static func == (lhs: RTBox, rhs: RTBox) -> Bool { lhs.leaf == rhs.leaf && lhs.padded == rhs.padded }
}

/// What a leaf's reducer does besides reducing: sends, stops.
struct RTHook: Sendable {
  let run: @Sendable (RTLeaf.Event) -> Void
  init(_ run: @escaping @Sendable (RTLeaf.Event) -> Void) { self.run = run }
  static let none = RTHook { _ in }
}

/// The leaf: counts, holds a reference, loads through a gated effect.
enum RTLeaf {
  struct State: Sendable, Equatable {
    var count = 0
    var token: RTToken?
    var text = ""
    var request: Int?
    var loaded: [Int] = []

    static func == (lhs: State, rhs: State) -> Bool {
      lhs.count == rhs.count && lhs.token?.value == rhs.token?.value && lhs.text == rhs.text
        && lhs.request == rhs.request && lhs.loaded == rhs.loaded
    }
  }

  enum Event: Sendable, Equatable {
    case inc, token(Int), text(String), load(Int), loaded(Int), echo(Int), stop
  }

  static func reducer(hook: RTHook) -> Reducer<State, Event> {
    Reducer { state, event in
      hook.run(event)
      switch event {
      case .inc, .echo: state.count += 1
      case .token(let value): state.token = RTToken(value)
      case .text(let text): state.text += text
      case .load(let request): state.request = request
      case .loaded(let value):
        state.loaded.append(value)
        state.request = nil
      case .stop: break
      }
    }
  }

  static func feature(name: String, gate: Gate, hook: RTHook) -> Feature<State, Event> {
    Feature(
      name: name, reducer: reducer(hook: hook),
      feedbacks: [
        .query(\.request, name: "load") { request in
          .run { send in
            await gate.wait()
            send(.loaded(request))
          }
        }
      ])
  }
}

/// The middle level: the leaf at a tuple element, as an optional, by id,
/// behind a generic level, and a zero-sized child.
enum RTMid {
  struct State: Sendable, Equatable {
    var flag = false
    var pair: (UInt8, RTLeaf.State) = (0, RTLeaf.State())
    var optional: RTLeaf.State?
    var leaves: TrackedDictionary<Int, RTLeaf.State> = [:]
    var empty = RTEmpty()
    var padded = RTPad(inner: RTLeaf.State())

    static func == (lhs: State, rhs: State) -> Bool {
      lhs.flag == rhs.flag && lhs.pair.0 == rhs.pair.0 && lhs.pair.1 == rhs.pair.1 && lhs.optional == rhs.optional
        && lhs.leaves == rhs.leaves && lhs.padded == rhs.padded
    }
  }

  enum Event: Sendable, Equatable {
    case pair(RTLeaf.Event), optional(RTLeaf.Event), leaf(Int, RTLeaf.Event), padded(RTLeaf.Event)
    case ping, open, close, add(Int), remove(Int)
  }

  struct ToPair: EventCase {
    func embed(_ event: RTLeaf.Event) -> Event { .pair(event) }
    func extract(_ event: Event) -> RTLeaf.Event? { if case .pair(let event) = event { event } else { nil } }
  }
  struct ToOptional: EventCase {
    func embed(_ event: RTLeaf.Event) -> Event { .optional(event) }
    func extract(_ event: Event) -> RTLeaf.Event? { if case .optional(let event) = event { event } else { nil } }
  }
  struct ToLeaf: ChildEventCase {
    func embed(_ id: Int, _ event: RTLeaf.Event) -> Event { .leaf(id, event) }
    func extract(_ event: Event) -> (Int, RTLeaf.Event)? {
      if case .leaf(let id, let event) = event { (id, event) } else { nil }
    }
  }
  struct ToPadded: EventCase {
    func embed(_ event: RTLeaf.Event) -> Event { .padded(event) }
    func extract(_ event: Event) -> RTLeaf.Event? { if case .padded(let event) = event { event } else { nil } }
  }
  struct ToPing: EventCase {
    func embed(_ event: Int) -> Event { .ping }
    func extract(_ event: Event) -> Int? { if case .ping = event { 1 } else { nil } }
  }

  static let own = Reducer<State, Event> { state, event in
    switch event {
    case .open: state.optional = RTLeaf.State()
    case .close: state.optional = nil
    case .add(let id): state.leaves[id] = RTLeaf.State()
    case .remove(let id): state.leaves[id] = nil
    case .ping: state.flag.toggle()
    case .pair, .optional, .leaf, .padded: break
    }
  }

  static let empty = Feature<RTEmpty, Int>(name: "empty", reducer: Reducer { _, _ in })

  /// The middle level; `byID` false leaves out the children by id, so that
  /// the level itself can be lifted by id.
  static func feature(form: CompositionForm, gate: Gate, hook: RTHook, byID: Bool = true) -> Feature<State, Event> {
    let leaf = RTLeaf.feature(name: "leaf", gate: gate, hook: hook)
    let items = RTLeaf.feature(name: "items", gate: gate, hook: hook)
    switch form {
    case .closures:
      var features: [Feature<State, Event>] = [
        Feature(name: "mid", reducer: own),
        leaf.lifted(state: \.pair.1, event: EventPath(ToPair())).feature,
        leaf.lifted(optional: \.optional, event: EventPath(ToOptional())).feature,
        leaf.lifted(state: \RTPad<RTLeaf.State>.inner, event: EventPath.identity).feature
          .lifted(state: \.padded, event: EventPath(ToPadded())).feature,
        empty.lifted(state: \.empty, event: EventPath(ToPing())).feature,
      ]
      if byID { features.append(items.lifted(children: \.leaves, event: ChildEventPath(ToLeaf())).feature) }
      return .combine(name: "mid", features)
    case .cases:
      let common = Feature(name: "mid", reducer: own)
        .combined(with: leaf.lifted(state: \State.pair.1, event: ToPair()))
        .combined(with: leaf.lifted(optional: \State.optional, event: ToOptional()))
        .combined(
          with: leaf.lifted(state: \RTPad<RTLeaf.State>.inner, event: SameEvent())
            .lifted(state: \State.padded, event: ToPadded())
        )
        .combined(with: empty.lifted(state: \State.empty, event: ToPing()))
      guard byID else { return common.feature }
      return common.combined(with: items.lifted(children: \State.leaves, event: ToLeaf())).feature
    }
  }

  /// The same, kept as the composed type, for the levels above to lift.
  static func composed(gate: Gate, hook: RTHook) -> some FeatureProtocol<State, Event> {
    let leaf = RTLeaf.feature(name: "leaf", gate: gate, hook: hook)
    let items = RTLeaf.feature(name: "items", gate: gate, hook: hook)
    return Feature(name: "mid", reducer: own)
      .combined(with: leaf.lifted(state: \State.pair.1, event: ToPair()))
      .combined(with: leaf.lifted(optional: \State.optional, event: ToOptional()))
      .combined(
        with: leaf.lifted(state: \RTPad<RTLeaf.State>.inner, event: SameEvent())
          .lifted(state: \State.padded, event: ToPadded())
      )
      .combined(with: empty.lifted(state: \State.empty, event: ToPing()))
      .combined(with: items.lifted(children: \State.leaves, event: ToLeaf()))
  }
}

/// The root: the middle level behind a generic level, as an optional, by
/// id (without its own children by id), behind an observed optional, and
/// leaves through a class at two depths.
enum RTRoot {
  struct State: Sendable, Equatable {
    var before: UInt8 = 0
    var main = RTPad(inner: RTMid.State())
    var optional: RTMid.State?
    var mids: TrackedDictionary<Int, RTMid.State> = [:]
    var observedWrites = 0
    var observed: RTMid.State? { didSet { observedWrites += 1 } }
    var boxed = RTBox()
    var viaClassRoot = RTBox()
  }

  enum Event: Sendable, Equatable {
    case main(RTMid.Event), optional(RTMid.Event), mid(Int, RTMid.Event), observed(RTMid.Event)
    case boxed(RTLeaf.Event), viaClassRoot(RTLeaf.Event)
    case open, close, add(Int), remove(Int), observe, unobserve, tick

    static func random(using generator: inout RTSeeded) -> Event {
      let leafEvents: [RTLeaf.Event] = [.inc, .token(1), .token(2), .text("x"), .load(1), .load(2), .loaded(3)]
      func leaf() -> RTLeaf.Event { leafEvents.randomElement(using: &generator)! }
      func mid() -> RTMid.Event {
        let id = Int.random(in: 0..<3, using: &generator)
        switch Int.random(in: 0..<9, using: &generator) {
        case 0: return .pair(leaf())
        case 1: return .optional(leaf())
        case 2: return .leaf(id, leaf())
        case 3: return .padded(leaf())
        case 4: return .ping
        case 5: return .open
        case 6: return .close
        case 7: return .add(id)
        default: return .remove(id)
        }
      }
      let id = Int.random(in: 0..<3, using: &generator)
      switch Int.random(in: 0..<13, using: &generator) {
      case 0, 1: return .main(mid())
      case 2: return .optional(mid())
      case 3: return .mid(id, mid())
      case 4: return .observed(mid())
      case 5: return .boxed(leaf())
      case 6: return .viaClassRoot(leaf())
      case 7: return .open
      case 8: return .close
      case 9: return .add(id)
      case 10: return .remove(id)
      case 11: return Bool.random(using: &generator) ? .observe : .unobserve
      default: return .tick
      }
    }
  }

  struct ToMain: EventCase {
    func embed(_ event: RTMid.Event) -> Event { .main(event) }
    func extract(_ event: Event) -> RTMid.Event? { if case .main(let event) = event { event } else { nil } }
  }
  struct ToOptional: EventCase {
    func embed(_ event: RTMid.Event) -> Event { .optional(event) }
    func extract(_ event: Event) -> RTMid.Event? { if case .optional(let event) = event { event } else { nil } }
  }
  struct ToMid: ChildEventCase {
    func embed(_ id: Int, _ event: RTMid.Event) -> Event { .mid(id, event) }
    func extract(_ event: Event) -> (Int, RTMid.Event)? {
      if case .mid(let id, let event) = event { (id, event) } else { nil }
    }
  }
  struct ToObserved: EventCase {
    func embed(_ event: RTMid.Event) -> Event { .observed(event) }
    func extract(_ event: Event) -> RTMid.Event? { if case .observed(let event) = event { event } else { nil } }
  }
  struct ToBoxed: EventCase {
    func embed(_ event: RTLeaf.Event) -> Event { .boxed(event) }
    func extract(_ event: Event) -> RTLeaf.Event? { if case .boxed(let event) = event { event } else { nil } }
  }
  struct ToViaClassRoot: EventCase {
    func embed(_ event: RTLeaf.Event) -> Event { .viaClassRoot(event) }
    func extract(_ event: Event) -> RTLeaf.Event? { if case .viaClassRoot(let event) = event { event } else { nil } }
  }

  static let own = Reducer<State, Event> { state, event in
    switch event {
    case .open: state.optional = RTMid.State()
    case .close: state.optional = nil
    case .add(let id): state.mids[id] = RTMid.State()
    case .remove(let id): state.mids[id] = nil
    case .observe: state.observed = RTMid.State()
    case .unobserve: state.observed = nil
    case .tick: state.before &+= 1
    case .main, .optional, .mid, .observed, .boxed, .viaClassRoot: break
    }
  }

  static func feature(form: CompositionForm, gate: Gate, hook: RTHook) -> Feature<State, Event> {
    let boxedLeaf = RTLeaf.feature(name: "boxed", gate: gate, hook: hook)
    let counter = Feature<Int, RTLeaf.Event>(
      name: "counter", reducer: Reducer { count, event in if event == .inc { count += 1 } })
    switch form {
    case .closures:
      let mid = RTMid.feature(form: .closures, gate: gate, hook: hook)
      let midWithoutByID = RTMid.feature(form: .closures, gate: gate, hook: hook, byID: false)
      return .combine(
        name: "root",
        Feature(name: "root", reducer: own),
        mid.lifted(state: \RTPad<RTMid.State>.inner, event: EventPath.identity).feature
          .lifted(state: \.main, event: EventPath(ToMain())).feature,
        mid.lifted(optional: \.optional, event: EventPath(ToOptional())).feature,
        Feature(name: "mids", reducer: midWithoutByID.reducer, feedbacks: midWithoutByID.feedbacks)
          .lifted(children: \.mids, event: ChildEventPath(ToMid())).feature,
        Feature(name: "observed", reducer: midWithoutByID.reducer)
          .lifted(optional: \.observed, event: EventPath(ToObserved())).feature,
        boxedLeaf.lifted(state: \.boxed.leaf, event: EventPath(ToBoxed())).feature,
        counter.lifted(state: \RTPad<Int>.inner, event: EventPath.identity).feature
          .lifted(state: \RTBox.padded, event: EventPath.identity).feature
          .lifted(state: \.viaClassRoot, event: EventPath(ToViaClassRoot())).feature)
    case .cases:
      let mid = RTMid.composed(gate: gate, hook: hook)
      let midWithoutByID = RTMid.feature(form: .cases, gate: gate, hook: hook, byID: false)
      return Feature(name: "root", reducer: own)
        .combined(
          with: mid.lifted(state: \RTPad<RTMid.State>.inner, event: SameEvent())
            .lifted(state: \State.main, event: ToMain())
        )
        .combined(with: mid.lifted(optional: \State.optional, event: ToOptional()))
        .combined(
          with: Feature(name: "mids", reducer: midWithoutByID.reducer, feedbacks: midWithoutByID.feedbacks)
            .lifted(children: \State.mids, event: ToMid())
        )
        .combined(
          with: Feature(name: "observed", reducer: midWithoutByID.reducer)
            .lifted(optional: \State.observed, event: ToObserved())
        )
        .combined(with: boxedLeaf.lifted(state: \State.boxed.leaf, event: ToBoxed()))
        .combined(
          with: counter.lifted(state: \RTPad<Int>.inner, event: SameEvent())
            .lifted(state: \RTBox.padded, event: SameEvent())
            .lifted(state: \State.viaClassRoot, event: ToViaClassRoot())
        )
        .feature
    }
  }
}

/// A level of a generic tree: stored, optional and by-id children.
struct RTNode<Next: Sendable & Equatable>: Sendable, Equatable {
  var flag: UInt8 = 0
  var leaf = RTLeaf.State()
  var other = RTLeaf.State()
  var next: Next?
  var kids: TrackedDictionary<Int, RTLeaf.State> = [1: RTLeaf.State()]
}

/// The tree of ``RTNode`` levels, composed through cases.
enum RTTree {
  static var leaf: Feature<RTLeaf.State, RTLeaf.Event> {
    Feature(name: "leaf", reducer: RTLeaf.reducer(hook: .none))
  }

  static func level<Inner: FeatureProtocol>(
    _ inner: Inner
  ) -> some FeatureProtocol<RTNode<Inner.State>, RTNodeEvent<Inner.Event>>
  where Inner.State: Equatable, Inner.Event: Equatable {
    Feature<RTNode<Inner.State>, RTNodeEvent<Inner.Event>>(name: "node", reducer: Reducer { _, _ in })
      .combined(with: leaf.lifted(state: \RTNode<Inner.State>.leaf, event: RTNodeCase.Leaf()))
      .combined(with: leaf.lifted(state: \RTNode<Inner.State>.other, event: RTNodeCase.Other()))
      .combined(with: inner.lifted(optional: \RTNode<Inner.State>.next, event: RTNodeCase.Next()))
      .combined(with: leaf.lifted(children: \RTNode<Inner.State>.kids, event: RTNodeCase.Kid()))
  }
}

enum RTNodeEvent<NextEvent: Sendable & Equatable>: Sendable, Equatable {
  case leaf(RTLeaf.Event), other(RTLeaf.Event), next(NextEvent), kid(Int, RTLeaf.Event)
}

enum RTNodeCase {
  struct Leaf<Next: Sendable & Equatable>: EventCase {
    func embed(_ event: RTLeaf.Event) -> RTNodeEvent<Next> { .leaf(event) }
    func extract(_ event: RTNodeEvent<Next>) -> RTLeaf.Event? {
      if case .leaf(let event) = event { event } else { nil }
    }
  }
  struct Other<Next: Sendable & Equatable>: EventCase {
    func embed(_ event: RTLeaf.Event) -> RTNodeEvent<Next> { .other(event) }
    func extract(_ event: RTNodeEvent<Next>) -> RTLeaf.Event? {
      if case .other(let event) = event { event } else { nil }
    }
  }
  struct Next<Next: Sendable & Equatable>: EventCase {
    func embed(_ event: Next) -> RTNodeEvent<Next> { .next(event) }
    func extract(_ event: RTNodeEvent<Next>) -> Next? { if case .next(let event) = event { event } else { nil } }
  }
  struct Kid<Next: Sendable & Equatable>: ChildEventCase {
    func embed(_ id: Int, _ event: RTLeaf.Event) -> RTNodeEvent<Next> { .kid(id, event) }
    func extract(_ event: RTNodeEvent<Next>) -> (Int, RTLeaf.Event)? {
      if case .kid(let id, let event) = event { (id, event) } else { nil }
    }
  }
}

/// A system of the root, in one form, with its monitor and gate.
final class RTProbe {
  let harness = Harness()
  let gate = Gate()
  let activity = ActivityLog<RTRoot.State, RTRoot.Event>()
  let system: System<RTRoot.State, RTRoot.Event>

  init(form: CompositionForm) {
    system = System(
      initial: RTRoot.State(), feature: RTRoot.feature(form: form, gate: gate, hook: .none),
      environment: harness.environment, monitor: activity.monitor)
  }
}

/// A user's feature type that keeps the defaults.
struct RTDoubling: FeatureProtocol {
  var name: String { "doubling" }
  var feedbacks: [LiftableFeedback<Int, Int>] { [.query({ $0 }, name: "watch") { _ in .none }] }
  func reduceReportingDiscards(_ state: inout Int, _ event: Int) -> String? {
    state = state * 2 + event
    return event < 0 ? "negative \(event)" : nil
  }
}

/// A user's wrapper that logs each event and keeps the defaults.
struct RTLogging<Inner: FeatureProtocol>: FeatureProtocol {
  let inner: Inner
  let log: Log<Inner.Event>
  var name: String { inner.name }
  var feedbacks: [LiftableFeedback<Inner.State, Inner.Event>] { inner.feedbacks }
  func reduceReportingDiscards(_ state: inout Inner.State, _ event: Inner.Event) -> String? {
    log.append(event)
    return inner.reduceReportingDiscards(&state, event)
  }
}

/// A user's wrapper that forwards every requirement to the feature it holds.
struct RTForwarding<Inner: FeatureProtocol>: FeatureProtocol {
  let inner: Inner
  var name: String { inner.name }
  var feedbacks: [LiftableFeedback<Inner.State, Inner.Event>] { inner.feedbacks }
  func reduceReportingDiscards(_ state: inout Inner.State, _ event: Inner.Event) -> String? {
    inner.reduceReportingDiscards(&state, event)
  }
}

/// The same as a class.
final class RTDoublingClass: FeatureProtocol {
  var name: String { "doubling" }
  var feedbacks: [LiftableFeedback<Int, Int>] { [] }
  func reduceReportingDiscards(_ state: inout Int, _ event: Int) -> String? {
    state = state * 2 + event
    return event < 0 ? "negative \(event)" : nil
  }
}

/// A timed child two levels deep under an optional, for the testing kit.
enum RTTimed {
  struct State: Sendable, Equatable {
    var isVisible = false
    var taps = 0
  }

  enum Event: Sendable, Equatable { case tap, hide }

  struct Holder: Sendable, Equatable {
    var pad: UInt8 = 0
    var timer: State?
  }

  typealias Parent = RTPad<RTPad<Holder>>

  enum ParentEvent: Sendable, Equatable { case open, close, timer(Event) }

  struct ToTimer: EventCase {
    func embed(_ event: Event) -> ParentEvent { .timer(event) }
    func extract(_ event: ParentEvent) -> Event? { if case .timer(let event) = event { event } else { nil } }
  }

  static let child = Feature<State, Event>(
    name: "timer",
    reducer: Reducer { state, event in
      switch event {
      case .tap:
        state.isVisible = true
        state.taps += 1
      case .hide: state.isVisible = false
      }
    },
    feedbacks: [.query({ $0.isVisible ? $0.taps : nil }, name: "hide") { _ in .after(.seconds(3), send: .hide) }])

  static let parent =
    Feature<Parent, ParentEvent>(
      name: "parent",
      reducer: Reducer { state, event in
        switch event {
        case .open: state.inner.inner.timer = State()
        case .close: state.inner.inner.timer = nil
        case .timer: break
        }
      }
    )
    .combined(
      with: child.lifted(optional: \Holder.timer, event: ToTimer())
        .lifted(state: \RTPad<Holder>.inner, event: SameEvent())
        .lifted(state: \Parent.inner, event: SameEvent()))
}

/// SplitMix64.
struct RTSeeded: RandomNumberGenerator {
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
