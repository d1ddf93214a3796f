/// What a ``DurableHost`` holds, by id: the systems loaded, the restores
/// and passivations in flight, and the order of use that the memory bound
/// passivates by. A plain value, changed only under the host's lock: every
/// decision is made here, and the host acts on it outside the lock.
///
/// An id is in at most one of `loaded`, `restoring`, `passivating`: a
/// restore, once started, is the only one for its id until it ends (two
/// concurrent gets restore once), and a passivation, once started, ends
/// before the id is restored again (its events are committed first, so
/// that the next restore reads them).
struct HostTable<State: Codable & Sendable, Event: Codable & Sendable> {
  typealias System = DurableSystem<State, Event>
  /// Makes the task that passivates a system (the host's): the table
  /// records it before the lock is released, so that a get made meanwhile
  /// waits for it.
  typealias Passivator = (_ id: String, _ system: System) -> Task<Void, Never>
  /// A passivation started: the id, and the task to wait for.
  typealias Passivation = (id: String, task: Task<Void, Never>)

  struct Loaded {
    var system: System
    /// When the system was last used, on the host's clock.
    var lastUsed: Duration
    /// The order of its last use, for the memory bound (least recent first).
    var useOrder: UInt64
  }

  /// What the host does for a get.
  enum Get {
    case ready(System)
    case awaitRestore(Task<System, any Error>)
    case startRestore
    /// A passivation of the id is in flight: wait for it, then get again.
    case awaitPassivation(Task<Void, Never>)
    case stopped
  }

  private(set) var loaded: [String: Loaded] = [:]
  private(set) var restoring: [String: Task<System, any Error>] = [:]
  private(set) var passivating: [String: Task<Void, Never>] = [:]
  private(set) var isStopped = false
  private var nextUseOrder: UInt64 = 0

  /// The systems in memory: loaded, being restored or being passivated.
  var inMemoryCount: Int { loaded.count + restoring.count + passivating.count }

  /// What a get of `id` does now; a loaded system counts as used at `now`.
  /// A loaded system that stopped (its journal failed, or a holder stopped
  /// it) is passivated, and restored again after.
  mutating func get(_ id: String, now: Duration, passivator: Passivator) -> Get {
    if isStopped { return .stopped }
    if let task = passivating[id] { return .awaitPassivation(task) }
    if let task = restoring[id] { return .awaitRestore(task) }
    guard loaded[id] != nil else { return .startRestore }
    if loaded[id]!.system.isStopped { return .awaitPassivation(startPassivation(id, passivator)) }
    loaded[id]!.lastUsed = now
    loaded[id]!.useOrder = takeUseOrder()
    return .ready(loaded[id]!.system)
  }

  /// Records the restore of `id` that the caller of a `.startRestore` get
  /// started.
  mutating func restoreStarted(_ id: String, _ task: Task<System, any Error>) {
    restoring[id] = task
  }

  /// The restore of `id` ended with `system`: it is loaded unless the host
  /// stopped meanwhile (then the caller stops it). Returns whether it is
  /// loaded.
  mutating func restored(_ id: String, _ system: System, now: Duration) -> Bool {
    restoring[id] = nil
    guard !isStopped else { return false }
    loaded[id] = Loaded(system: system, lastUsed: now, useOrder: takeUseOrder())
    return true
  }

  /// The restore of `id` failed: the id is free, and the next get tries
  /// again.
  mutating func restoreFailed(_ id: String) {
    restoring[id] = nil
  }

  /// Starts passivating the least recently used idle systems until at most
  /// `limit` are loaded or being restored (or none is idle), except
  /// `keeping`; once the returned passivations end, at most `limit` are
  /// in memory.
  mutating func passivateOverLimit(_ limit: Int, keeping: String, passivator: Passivator) -> [Passivation] {
    var tasks: [Passivation] = []
    while loaded.count + restoring.count > limit {
      var victim: (id: String, order: UInt64)?
      // Over a copy of the keys: iterating `loaded.keys` itself would keep
      // the dictionary's storage shared, and `isIdle` would then see every
      // system held twice.
      for id in Array(loaded.keys) where id != keeping {
        let order = loaded[id]!.useOrder
        if let found = victim, found.order <= order { continue }
        if isIdle(id) { victim = (id, order) }
      }
      guard let victim else { break }
      tasks.append((victim.id, startPassivation(victim.id, passivator)))
    }
    return tasks
  }

  /// Starts passivating every idle system last used at or before `cutoff`.
  mutating func passivateIdle(usedAtOrBefore cutoff: Duration, passivator: Passivator) -> [Passivation] {
    var tasks: [Passivation] = []
    for id in Array(loaded.keys) where loaded[id]!.lastUsed <= cutoff && isIdle(id) {
      tasks.append((id, startPassivation(id, passivator)))
    }
    return tasks
  }

  /// The passivation of `id` ended: the id is free, and the next get
  /// restores it from the journal.
  mutating func passivated(_ id: String) {
    passivating[id] = nil
  }

  /// Stops the table: no get succeeds from now on. Returns what the host
  /// must stop and wait for.
  mutating func stop() -> (loaded: [System], restoring: [Task<System, any Error>], passivating: [Task<Void, Never>]) {
    isStopped = true
    defer { loaded = [:] }
    return (loaded.values.map(\.system), Array(restoring.values), Array(passivating.values))
  }

  private mutating func startPassivation(_ id: String, _ passivator: Passivator) -> Task<Void, Never> {
    let system = loaded.removeValue(forKey: id)!.system
    let task = passivator(id, system)
    passivating[id] = task
    return task
  }

  /// Whether the system of `id` may be passivated: nobody but the host
  /// holds it (a caller that keeps it keeps using it), none of its
  /// effect or input tasks runs (passivating would cancel work in flight,
  /// and a timer would never fire: nothing would restore the system), and
  /// no event waits to be reduced (a main-actor system's events sent from
  /// elsewhere wait for their hop, counted by no task: the stop would drop
  /// them). Once all three hold, nothing can send to it: nobody holds it,
  /// and no task of its own runs.
  private mutating func isIdle(_ id: String) -> Bool {
    // The reference is checked where it is stored, with no copy: a copy
    // would count as a second holder.
    guard isKnownUniquelyReferenced(&loaded[id]!.system) else { return false }
    let system = loaded[id]!.system
    if system.isStopped { return true }
    return system.runningTaskCount == 0 && !system.system.hasWorkInFlight
  }

  private mutating func takeUseOrder() -> UInt64 {
    defer { nextUseOrder += 1 }
    return nextUseOrder
  }
}
