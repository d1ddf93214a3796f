import CFeedbackLoopShims

/// The child systems a parent runs, one per id found in its state: read
/// their states, from any thread, while the parent's
/// `Feedback.childSystems(_:for:make:route:outcome:)` feedback starts and
/// stops them.
///
/// ```swift
/// let downloads = ChildSystems<Download.ID, Download.State, Download.Event>()
/// let app = System(initial: App.State(), reduce: App.reduce, feedbacks: [
///   .childSystems(downloads, for: \.downloads, make: { id, url in Download.system(url) },
///     route: App.downloadEvent, outcome: App.downloadOutcome)
/// ])
/// downloads[id]?.state.progress  // a child's state
/// ```
public final class ChildSystems<ID: Hashable & Sendable, ChildState: Sendable, ChildEvent: Sendable>:
  @unchecked Sendable
{
  // @unchecked Sendable: `systems` is read and written only under `lock`;
  // the systems themselves are Sendable.
  private let lock = UnsafeMutablePointer<fl_lock_t>.allocate(capacity: 1)
  private var systems: [ID: System<ChildState, ChildEvent>] = [:]

  /// An empty set of children, to hand to the parent's feedback.
  public init() { fl_lock_init(lock) }

  deinit {
    fl_lock_destroy(lock)
    lock.deallocate()
  }

  private func withLock<Result>(_ body: () throws -> Result) rethrows -> Result {
    fl_lock_lock(lock)
    defer { fl_lock_unlock(lock) }
    return try body()
  }

  /// The running child system for `id`, or `nil`.
  public subscript(id: ID) -> System<ChildState, ChildEvent>? { withLock { systems[id] } }

  /// The state of the child `id`, or `nil` if it does not run.
  public func state(of id: ID) -> ChildState? { self[id]?.state }

  /// The ids of the running children, in no particular order.
  public var ids: [ID] { withLock { Array(systems.keys) } }

  /// How many children run.
  public var count: Int { withLock { systems.count } }

  func insert(_ system: System<ChildState, ChildEvent>, for id: ID) -> System<ChildState, ChildEvent>? {
    withLock { systems.updateValue(system, forKey: id) }
  }

  func remove(_ id: ID) -> System<ChildState, ChildEvent>? { withLock { systems.removeValue(forKey: id) } }

  func removeAll() -> [System<ChildState, ChildEvent>] {
    withLock {
      defer { systems = [:] }
      return Array(systems.values)
    }
  }
}

extension Feedback {
  /// Runs a child ``System`` per id of `requests`, by the keyed feedback's
  /// rules (G6): a new id starts a child made by `make`, a removed id stops
  /// it, a kept id's child goes on (a changed value is handed to it as the
  /// event `updated` makes, if any). Parent events that `route` maps to a
  /// child's id and event are sent to that child; each state of a child is
  /// turned by `outcome` into a parent event, or none.
  ///
  /// A child never outlives the parent: stopping or releasing the parent
  /// stops every child (G9). Children that stop together (the parent
  /// stopping, or `requests` returning a dictionary that replaced the last
  /// one wholesale, whose change log cannot say which ids went) stop in the
  /// order they were started, oldest first, on every run. New ids found on
  /// such a replacement start in the dictionary's iteration order. The outcomes of a child whose id was removed,
  /// not yet reduced, are dropped (G4). An event routed to an id with no
  /// child is reported to the parent's monitor as discarded,
  /// ``DiscardReason/noSuchChild(_:)``, and logged.
  ///
  /// ```swift
  /// Feedback<App.State, App.Event>.childSystems(
  ///   downloads, for: \.downloads,
  ///   make: { id, url in Download.system(url: url, client: client) },
  ///   route: { if case .download(let id, let event) = $0 { (id, event) } else { nil } },
  ///   outcome: { id, state in state.isDone ? .downloadFinished(id) : nil }
  /// )
  /// ```
  ///
  /// Children start on the parent's loop, synchronously: an event for a new
  /// child sent right after the event that added it finds it. Its outcomes
  /// reach the parent through an effect, one task per child.
  public static func childSystems<ID: Hashable & Sendable, Value: Equatable & Sendable, ChildState, ChildEvent>(
    _ children: ChildSystems<ID, ChildState, ChildEvent>,
    for requests: @escaping @Sendable (State) -> TrackedDictionary<ID, Value>,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    make: @escaping @Sendable (ID, Value) -> System<ChildState, ChildEvent>,
    route: @escaping @Sendable (Event) -> (ID, ChildEvent)? = { _ in nil },
    updated: @escaping @Sendable (Value) -> ChildEvent? = { _ in nil },
    outcome: @escaping @Sendable (ID, ChildState) -> Event?
  ) -> Feedback {
    Feedback(name: name, kind: "childSystems", fileID: fileID, line: line) { id, core in
      ChildSystemsRuntime(
        id: id, core: core, children: children, requests: requests, make: make, route: route, updated: updated,
        outcome: outcome)
    }
  }

  /// `childSystems(_:for:make:route:outcome:)` over the ids of a
  /// `Dictionary`: each state costs O(n) in the number of
  /// children when they changed; prefer a ``TrackedDictionary`` for many.
  public static func childSystems<ID: Hashable & Sendable, Value: Equatable & Sendable, ChildState, ChildEvent>(
    _ children: ChildSystems<ID, ChildState, ChildEvent>,
    for requests: @escaping @Sendable (State) -> [ID: Value],
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    make: @escaping @Sendable (ID, Value) -> System<ChildState, ChildEvent>,
    route: @escaping @Sendable (Event) -> (ID, ChildEvent)? = { _ in nil },
    updated: @escaping @Sendable (Value) -> ChildEvent? = { _ in nil },
    outcome: @escaping @Sendable (ID, ChildState) -> Event?
  ) -> Feedback {
    childSystems(
      children, for: { TrackedDictionary(requests($0)) }, name: name, fileID: fileID, line: line, make: make,
      route: route, updated: updated, outcome: outcome)
  }
}

/// The runtime of `childSystems`: a keyed table whose effect per id pumps the
/// child's states up as outcomes; the child itself is started and stopped
/// here, on the loop, so that its life follows the parent's state exactly.
final class ChildSystemsRuntime<
  State: Sendable, Event: Sendable, ID: Hashable & Sendable, Value: Equatable & Sendable, ChildState: Sendable,
  ChildEvent: Sendable
>: KeyedRuntime<State, Event, ID, Never> {
  let children: ChildSystems<ID, ChildState, ChildEvent>
  let requests: @Sendable (State) -> TrackedDictionary<ID, Value>
  let make: @Sendable (ID, Value) -> System<ChildState, ChildEvent>
  let updated: @Sendable (Value) -> ChildEvent?
  let outcome: @Sendable (ID, ChildState) -> Event?
  @exclusivity(unchecked) var cursor = ChangeCursor()
  /// The value each running child was made or last updated with, and the
  /// number of its start: children stopped together (a dictionary replaced
  /// wholesale, the parent stopping) stop in the order they started, the
  /// same on every run, not in the dictionary's order, which depends on the
  /// process's hashing seed.
  @exclusivity(unchecked) var values: [ID: (value: Value, started: UInt64)] = [:]
  @exclusivity(unchecked) var starts: UInt64 = 0

  init(
    id: FeedbackID, core: SystemCore<State, Event>, children: ChildSystems<ID, ChildState, ChildEvent>,
    requests: @escaping @Sendable (State) -> TrackedDictionary<ID, Value>,
    make: @escaping @Sendable (ID, Value) -> System<ChildState, ChildEvent>,
    route: @escaping @Sendable (Event) -> (ID, ChildEvent)?,
    updated: @escaping @Sendable (Value) -> ChildEvent?,
    outcome: @escaping @Sendable (ID, ChildState) -> Event?
  ) {
    self.children = children
    self.requests = requests
    self.make = make
    self.updated = updated
    self.outcome = outcome
    super.init(id: id, core: core)
    // `unowned(unsafe) self`: the system keeps this handler and the runtime until it stops; none runs after.
    onEachState { [unowned(unsafe) self] state, _ in self.reconcile(requests(state)) }
    let monitor = core.monitor
    let logger = core.environment.logger
    onEachEvent { event, _, _ in
      guard let (id, childEvent) = route(event) else { return }
      if let child = children[id] {
        child.send(childEvent)
      } else {
        let reason = "no child system \(id): \(childEvent) has no child to reach"
        logger.warning("event discarded: \(event): \(reason)")
        monitor?.report(.eventDiscarded(event, reason: .noSuchChild(reason)))
      }
    }
  }

  func reconcile(_ current: TrackedDictionary<ID, Value>) {
    switch current.changes(since: cursor) {
    case .unchanged:
      break
    case .changed(let touched):
      for id in touched { reconcile(id, now: current[id]) }
    case .unknown:
      for id in idsInStartOrder(where: { current[$0] == nil }) { reconcile(id, now: nil) }
      for (id, value) in current { reconcile(id, now: value) }
    }
    cursor = current.changeCursor
  }

  /// The running children's ids that satisfy `isIncluded`, oldest start first.
  func idsInStartOrder(where isIncluded: (ID) -> Bool) -> [ID] {
    values.filter { isIncluded($0.key) }.sorted { $0.value.started < $1.value.started }.map(\.key)
  }

  func reconcile(_ id: ID, now: Value?) {
    switch (values[id], now) {
    case (nil, nil):
      return
    case (_?, nil):
      values[id] = nil
      children.remove(id)?.stop()
      table.cancel(id)
    case (nil, let value?):
      starts += 1
      values[id] = (value, starts)
      start(id, value)
    case (let previous?, let value?):
      guard previous.value != value else { return }
      values[id] = (value, previous.started)
      if let event = updated(value) { children[id]?.send(event) }
    }
  }

  private func start(_ id: ID, _ value: Value) {
    let child = make(id, value)
    children.insert(child, for: id)?.stop()
    let outcome = self.outcome
    // The child's states, all of them, in order, for as long as the child
    // runs: the sequence ends when the child stops, the task when its id goes.
    let states = child.states(buffering: .all)
    table.start(
      id,
      effect: .run { send in
        for await state in states {
          if let event = outcome(id, state) { send(event) }
        }
      })
  }

  override func stop() {
    for id in idsInStartOrder(where: { _ in true }) { children.remove(id)?.stop() }
    for child in children.removeAll() { child.stop() }
    values = [:]
    super.stop()
  }
}
