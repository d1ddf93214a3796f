import FeedbackLoopTesting
import Testing

@testable import FeedbackLoop

/// What an event for a child by id copies: nothing when the id is not
/// there, the dictionary once when another value shares it; and a lift
/// through a computed or observed property, which copies the dictionary on
/// every event, says so where it is built.
@Suite(.runsLeftoverJobs) struct ChildrenByIDCopyTests {
  struct Stored: Sendable, Equatable {
    var padding = 0
    var children: TrackedDictionary<Int, Int> = [:]
  }

  /// The same children behind a computed property: a key path with no offset.
  struct Computed: Sendable, Equatable {
    var backing: TrackedDictionary<Int, Int> = [:]
    var children: TrackedDictionary<Int, Int> {
      get { backing }
      set { backing = newValue }
    }
  }

  struct Observed: Sendable, Equatable {
    var writes = 0
    var children: TrackedDictionary<Int, Int> = [:] { didSet { writes += 1 } }
  }

  struct ToChild: ChildEventCase {
    func embed(_ id: Int, _ event: Int) -> (Int, Int) { (id, event) }
    func extract(_ event: (Int, Int)) -> (Int, Int)? { event }
  }

  static let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(reduceReturning: +))

  static func manyChildren() -> TrackedDictionary<Int, Int> {
    TrackedDictionary(Dictionary(uniqueKeysWithValues: (0..<1_000).map { ($0, 0) }))
  }

  @Test("an event for an id that is not there copies no shared dictionary, in both forms")
  func discardCopiesNothing() {
    let closures = Self.counter.lifted(children: \Stored.children, event: ChildEventPath(ToChild())).feature
    let cases = Self.counter.lifted(children: \Stored.children, event: ToChild())
    for feature in [closures.reduceReportingDiscards, cases.reduceReportingDiscards] {
      var state = Stored(children: Self.manyChildren())
      let published = state  // what a system's readers and observers keep
      let discard = feature(&state, (5_000, 1))
      #expect(discard?.contains("no child 5000") == true)
      #expect(state.children.storage === published.children.storage, "a discarded event copied the dictionary")
      #expect(feature(&state, (7, 1)) == nil)
      #expect(state.children[7] == 1 && published.children[7] == 0)
    }
  }

  @Test("a lift by id through a computed or observed property warns once per key path; a stored one does not")
  func liftThroughAccessorsWarns() {
    _ = ExpectedLiftWarnings.recorder
    func warned(_ path: AnyKeyPath) -> Bool {
      ChildrenBehindAccessors.warned.withLock { $0.contains("\(path)") } && ExpectedLiftWarnings.logged(for: path)
    }
    _ = Self.counter.lifted(children: \Stored.children, event: ToChild())
    _ = Self.counter.reducer.lifted(children: \Stored.children, event: ChildEventPath(ToChild()))
    #expect(!warned(\Stored.children) && !ExpectedLiftWarnings.logged(for: \Stored.children))
    _ = Self.counter.lifted(children: \Computed.children, event: ToChild())
    #expect(warned(\Computed.children))
    _ = Self.counter.reducer.lifted(children: \Observed.children, event: ChildEventPath(ToChild()))
    #expect(warned(\Observed.children))
    // Warned once: a feature built again for each system logs nothing more.
    let count = ChildrenBehindAccessors.warned.withLock { $0.count }
    _ = Self.counter.lifted(children: \Computed.children, event: ToChild())
    #expect(ChildrenBehindAccessors.warned.withLock { $0.count } == count)
  }

  @Test("children behind a computed property still reach the child and discard a missing id, copying per event")
  func computedChildrenStillWork() {
    _ = ExpectedLiftWarnings.recorder
    let feature = Self.counter.lifted(children: \Computed.children, event: ToChild())
    var state = Computed(backing: Self.manyChildren())
    #expect(feature.reduceReportingDiscards(&state, (5_000, 1))?.contains("no child 5000") == true)
    let before = ObjectIdentifier(state.backing.storage)
    #expect(feature.reduceReportingDiscards(&state, (3, 2)) == nil)
    #expect(state.children[3] == 2)
    // The setter wrote back a copy: what the warning is about.
    #expect(ObjectIdentifier(state.backing.storage) != before)
  }
}

/// The warnings of lifts by id through computed or observed properties, which
/// this test target builds on purpose: kept here instead of printed (a
/// passing run prints nothing it expects). A test that builds such a lift
/// reads ``recorder`` first; the warning is logged once per key path, by
/// whichever test builds it first.
enum ExpectedLiftWarnings {
  static let recorder: LogRecorder = {
    let recorder = LogRecorder()
    ChildrenBehindAccessors.logger.withLock { $0 = recorder.logger }
    return recorder
  }()

  /// Whether the warning for `path` was logged.
  static func logged(for path: AnyKeyPath) -> Bool {
    recorder.messages.contains { $0.contains("children by id at \(path) ") }
  }
}
