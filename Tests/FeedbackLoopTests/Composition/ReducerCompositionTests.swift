import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// Reducers that compose: in order over one state, lifted at a key path, as
/// an optional child, and as children by id, with an event for a child that
/// does not exist reported, never dropped in silence.
@Suite(.runsLeftoverJobs) struct ReducerCompositionTests {
  @Test("combine runs the reducers in order, each on the state the previous left")
  func combineRunsInOrder() {
    let double = Reducer<[String], String> { log, event in log.append("double \(event) after \(log.count)") }
    let single = Reducer<[String], String> { log, event in log.append("single \(event) after \(log.count)") }
    var log: [String] = []
    Reducer.combine(double, single).reduce(&log, "e")
    #expect(log == ["double e after 0", "single e after 1"])
    var reversed: [String] = []
    Reducer.combine([single, double, single]).reduce(&reversed, "e")
    #expect(reversed == ["single e after 0", "double e after 1", "single e after 2"])
  }

  @Test("a reducer lifted at a key path changes only the child, for its own events")
  func liftedAtKeyPath() {
    let reducer = Loader.reducer.lifted(state: \Parent.State.main, event: Parent.toMain)
    var state = Parent.State()
    reducer.reduce(&state, .main(.load(3)))
    reducer.reduce(&state, .other)
    reducer.reduce(&state, .optional(.load(4)))
    #expect(state.main.request == 3)
    #expect(state == Parent.State(main: Loader.State(request: 3)))
  }

  @Test("an optional child runs only while its state exists; an event for it while nil says why")
  func liftedOptional() {
    let reducer = Reducer.combine(
      Parent.own, Loader.reducer.lifted(optional: \Parent.State.optional, event: Parent.toOptional))
    var state = Parent.State()
    let discard = reducer.reduceReportingDiscards(&state, .optional(.load(1)))
    #expect(state == Parent.State())
    #expect(discard?.contains("is nil") == true)
    reducer.reduce(&state, .open)
    #expect(reducer.reduceReportingDiscards(&state, .optional(.load(2))) == nil)
    #expect(state.optional?.request == 2)
  }

  @Test("children by id: each event reaches the child it names; an unknown id is reported")
  func liftedByID() {
    let reducer = Reducer.combine(
      Parent.own, Loader.reducer.lifted(children: \Parent.State.items, event: Parent.toItem))
    var state = Parent.State()
    for id in 0..<100 { reducer.reduce(&state, .add(id)) }
    reducer.reduce(&state, .item(42, .load(7)))
    #expect(state.items[42]?.request == 7)
    #expect(state.items.values.filter { $0.request != nil }.count == 1)
    let before = state
    let discard = reducer.reduceReportingDiscards(&state, .item(100, .load(1)))
    #expect(state == before)
    #expect(discard?.contains("no child 100") == true)
  }

  @Test("children by id in a dictionary literal, kept as a TrackedDictionary: the same routing")
  func liftedByIDInDictionary() {
    struct Plain: Sendable, Equatable { var items: TrackedDictionary<Int, Loader.State> = [:] }
    let reducer = Loader.reducer.lifted(children: \Plain.items, event: Parent.toItem)
    var state = Plain(items: [1: Loader.State(), 2: Loader.State()])
    reducer.reduce(&state, .item(2, .load(5)))
    #expect(state.items[2]?.request == 5 && state.items[1]?.request == nil)
    #expect(reducer.reduceReportingDiscards(&state, .item(3, .clear)) != nil)
  }

  @Test("a system reports an event for a missing child to its monitor as noSuchChild, and keeps running")
  func missingChildReportedToMonitor() {
    let activity = ActivityLog<Parent.State, Parent.Event>()
    let logs = LogRecorder()
    let system = System(
      initial: Parent.State(), feature: Parent.feature(gate: Gate()),
      environment: SystemEnvironment(logger: logs.logger), monitor: activity.monitor)
    system.send(.item(9, .load(1)))
    system.send(.optional(.clear))
    system.send(.other)
    let reasons = activity.discarded.map { $0.1 }
    #expect(reasons.count == 2)
    guard let why = reasons.first?.missingChild else {
      Issue.record("expected noSuchChild, got \(reasons)")
      return
    }
    #expect(why.contains("no child 9"))
    #expect(activity.discarded.map { $0.0 } == [.item(9, .load(1)), .optional(.clear)])
    #expect(system.state.other == 1)
    #expect(logs.messages.filter { $0.hasPrefix("event discarded: ") }.count == 2, "and logs them")
  }

  @Test("lifting composes: a reducer three levels deep reaches its state")
  func nestedLifting() {
    struct Outer: Sendable, Equatable { var middle = Middle() }
    struct Middle: Sendable, Equatable { var parent = Parent.State() }
    let toParent = EventPath<Parent.Event, Parent.Event>.identity
    let reducer = Loader.reducer
      .lifted(state: \Parent.State.main, event: Parent.toMain)
      .lifted(state: \Middle.parent, event: toParent)
      .lifted(state: \Outer.middle, event: toParent)
    var state = Outer()
    reducer.reduce(&state, .main(.load(8)))
    #expect(state.middle.parent.main.request == 8)
  }
}
