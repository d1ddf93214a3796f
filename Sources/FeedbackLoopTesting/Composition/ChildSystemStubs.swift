import FeedbackLoop

/// Stand-ins for a parent's child systems, chosen by the child's type and
/// key, so that a parent is tested alone: each stub starts from the state
/// the test gives it and answers the events routed to it as the test says;
/// the parent's outcomes come from those states. ``verify(fileID:filePath:line:column:)``
/// (or the stubs' release) fails for every stubbed child the parent never
/// started; a child started without a stub fails at once.
///
/// ```swift
/// let stubs = ChildSystemStubs()
/// stubs.stub(System<Download.State, Download.Event>.self, id: 1, initial: Download.State()) { state, event in
///   if event == .tick { state.progress = 3 }  // done at the first tick
/// }
/// let app = TestSystem(initial: App.State(), reduce: App.reduce, feedbacks: [
///   .childSystems(children, for: \.downloads, make: stubs.make(System<Download.State, Download.Event>.self,
///     placeholder: Download.State()), route: App.route, outcome: App.outcome)
/// ])
/// app.send(.add(1, url)) { $0.downloads[1] = url }
/// app.send(.download(1, .tick))
/// app.receive(.downloadFinished(1)) { $0.finished = [1] }
/// stubs.verify()
/// #expect(stubs.received(System<Download.State, Download.Event>.self, id: 1) == [.tick])
/// ```
public final class ChildSystemStubs: @unchecked Sendable {
  // @unchecked Sendable: `entries` and `verified` are guarded by `lock`.
  private let lock = Lock()
  private var entries: [StubKey: any StubEntry] = [:]
  private var order: [StubKey] = []
  private var verified = false
  private let reporter: TestFailureReporter

  /// Stubs that report failures to `reporter`.
  public init(reporter: TestFailureReporter = .automatic) { self.reporter = reporter }

  deinit {
    if !verified { verify(at: nil) }
  }

  /// Expects the parent to start the child `id` of type `type`, and stands
  /// in for it: it starts from `initial`, and `respond` changes its state
  /// for each event routed to it.
  public func stub<ID: Hashable & Sendable, ChildState: Sendable, ChildEvent: Sendable>(
    _ type: System<ChildState, ChildEvent>.Type,
    id: ID,
    initial: ChildState,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column,
    respond: @escaping @Sendable (inout ChildState, ChildEvent) -> Void = { _, _ in }
  ) {
    let key = StubKey(type: ObjectIdentifier(type), id: AnyHashable(id))
    let entry = Entry<ChildState, ChildEvent>(
      description: "\(type) \(id)", initial: initial, respond: respond,
      site: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
    lock.withLock {
      if entries.updateValue(entry, forKey: key) == nil { order.append(key) }
    }
  }

  /// The `make` function to hand the parent's `childSystems` feedback in
  /// place of the real one: it starts the stub of `type` for each id. An id
  /// with no stub fails the test and starts from `placeholder`.
  public func make<ID: Hashable & Sendable, Value: Sendable, ChildState: Sendable, ChildEvent: Sendable>(
    _ type: System<ChildState, ChildEvent>.Type,
    placeholder: ChildState,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) -> @Sendable (ID, Value) -> System<ChildState, ChildEvent> {
    let site = CallSite(fileID: fileID, filePath: filePath, line: line, column: column)
    return { [self] id, _ in
      let key = StubKey(type: ObjectIdentifier(type), id: AnyHashable(id))
      let entry = lock.withLock { entries[key] as? Entry<ChildState, ChildEvent> }
      guard let entry else {
        reporter.report(
          TestFailure(
            kind: .childSystem, message: "the parent started \(type) \(id), which the test did not stub",
            location: site))
        return System(initial: placeholder, reduce: { _, _ in })
      }
      return entry.start()
    }
  }

  /// The events the stub of `type` and `id` received, in order, across all
  /// its starts.
  public func received<ID: Hashable & Sendable, ChildState: Sendable, ChildEvent: Sendable>(
    _ type: System<ChildState, ChildEvent>.Type, id: ID
  ) -> [ChildEvent] {
    let key = StubKey(type: ObjectIdentifier(type), id: AnyHashable(id))
    return lock.withLock { (entries[key] as? Entry<ChildState, ChildEvent>)?.receivedEvents } ?? []
  }

  /// How many times the parent started the stub of `type` and `id`.
  public func startCount<ID: Hashable & Sendable, ChildState: Sendable, ChildEvent: Sendable>(
    _ type: System<ChildState, ChildEvent>.Type, id: ID
  ) -> Int {
    let key = StubKey(type: ObjectIdentifier(type), id: AnyHashable(id))
    return lock.withLock { entries[key]?.starts } ?? 0
  }

  /// Fails for every stubbed child that the parent never started.
  public func verify(
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    verify(at: CallSite(fileID: fileID, filePath: filePath, line: line, column: column))
  }

  private func verify(at site: CallSite?) {
    let neverStarted = lock.withLock {
      verified = true
      return order.compactMap { entries[$0] }.filter { $0.starts == 0 }
    }
    for entry in neverStarted {
      reporter.report(
        TestFailure(
          kind: .childSystem, message: "the parent never started the child \(entry.description) that the test expects",
          location: site ?? entry.site))
    }
  }
}

/// A stub's identity: the child system's type and its key.
struct StubKey: Hashable {
  let type: ObjectIdentifier
  let id: AnyHashable
}

protocol StubEntry: AnyObject, Sendable {
  var description: String { get }
  var site: CallSite { get }
  var starts: Int { get }
}

/// One stub: what it starts from, how it answers, what it received.
final class Entry<ChildState: Sendable, ChildEvent: Sendable>: StubEntry, @unchecked Sendable {
  // @unchecked Sendable: `received` and `startCount` are guarded by `lock`;
  // the rest is immutable.
  let description: String
  let initial: ChildState
  let respond: @Sendable (inout ChildState, ChildEvent) -> Void
  let site: CallSite
  private let lock = Lock()
  private var received: [ChildEvent] = []
  private var startCount = 0

  init(
    description: String, initial: ChildState, respond: @escaping @Sendable (inout ChildState, ChildEvent) -> Void,
    site: CallSite
  ) {
    self.description = description
    self.initial = initial
    self.respond = respond
    self.site = site
  }

  var starts: Int { lock.withLock { startCount } }
  var receivedEvents: [ChildEvent] { lock.withLock { received } }

  func start() -> System<ChildState, ChildEvent> {
    lock.withLock { startCount += 1 }
    let respond = self.respond
    return System(
      initial: initial,
      reduce: { [self] state, event in
        lock.withLock { received.append(event) }
        respond(&state, event)
      })
  }
}

extension TestSystem {
  /// Tests a system running `feature`, exactly as production code would
  /// make it with `System(initial:feature:)`:
  /// the lifted feedbacks' effects are listed in flight under their
  /// feature's name (`search/query@Search.swift:12`), and an event for a
  /// child that does not exist shows in the timeline as discarded.
  ///
  /// ```swift
  /// let app = TestSystem(initial: App.State(), feature: App.feature(api: api))
  /// ```
  public convenience init(
    initial: State,
    feature: Feature<State, Event>,
    feedbacks: [Feedback<State, Event>] = [],
    clock: TestClock = TestClock(),
    exhaustivity: Exhaustivity = .on,
    reporter: TestFailureReporter = .automatic,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      clock: clock, exhaustivity: exhaustivity, reporter: reporter,
      fileID: fileID, filePath: filePath, line: line, column: column
    ) { environment, monitor in
      System(initial: initial, feature: feature, feedbacks: feedbacks, environment: environment, monitor: monitor)
    }
  }

  /// Tests a system running a feature composed through event cases
  /// (`FeatureProtocol`), exactly as
  /// `System(initial:feature:)` makes it.
  ///
  /// ```swift
  /// let app = TestSystem(
  ///   initial: App.State(),
  ///   feature: Search.feature.lifted(state: \App.State.search, event: ToSearch())
  /// )
  /// ```
  public convenience init<Composed: FeatureProtocol<State, Event>>(
    initial: State,
    feature: Composed,
    feedbacks: [Feedback<State, Event>] = [],
    clock: TestClock = TestClock(),
    exhaustivity: Exhaustivity = .on,
    reporter: TestFailureReporter = .automatic,
    fileID: StaticString = #fileID,
    filePath: StaticString = #filePath,
    line: UInt = #line,
    column: UInt = #column
  ) {
    self.init(
      initial: initial, feature: feature.feature, feedbacks: feedbacks, clock: clock, exhaustivity: exhaustivity,
      reporter: reporter, fileID: fileID, filePath: filePath, line: line, column: column)
  }
}
