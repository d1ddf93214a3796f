import FeedbackLoop

/// Many durable systems of one kind, by id, with only the ones in use in
/// memory: a server's carts, an app's documents.
///
/// The host restores a system the first time it is asked for
/// (``system(_:)``, ``send(_:to:isolation:)``), keeps it while it is used,
/// and passivates it once it is idle: it waits for the system's queued
/// events to be committed, then drops it. The next event for that id
/// restores it from the journal, with the state it had.
///
/// ```swift
/// let writer = JournalWriter(journal: journal)
/// let carts = DurableHost<Cart, CartEvent>(passivateAfter: .seconds(300), maxLoaded: 10_000) { id in
///   try await DurableSystem.restore(
///     id: id, writer: writer, initial: Cart(), reduce: Cart.reduce, feedbacks: Cart.feedbacks(api: api))
/// }
/// let sweeper = Task { await carts.run() }   // passivates idle carts as time passes
/// try await carts.sendDurably(.add("tea"), to: "cart-42")
/// ```
///
/// ## Idle systems, and memory
///
/// A loaded system is *idle* when:
/// - nobody but the host holds it: a caller that keeps the system that
///   ``system(_:)`` returned (a view's store, say) keeps it loaded, and never
///   finds it stopped under its feet;
/// - none of its effect or input tasks runs: a system whose effects are in
///   flight is not idle, since passivating it would cancel them, and a timer
///   it waits on would never fire (nothing would restore it to fire it);
///   so a system with an input bound for its lifetime is never idle;
/// - no event waits to be reduced: a main-actor system's events sent from
///   elsewhere wait for a hop to the main actor, and stopping it then would
///   drop them;
/// - for ``passivateIdleSystems()``, it was last used at least
///   `passivateAfter` ago on the host's clock (the injected one: a test
///   clock in tests).
///
/// Two bounds passivate idle systems, either or both:
/// - `passivateAfter`: ``run()`` (or a call to ``passivateIdleSystems()``)
///   passivates the systems idle that long;
/// - `maxLoaded`: restoring a system beyond the bound first passivates the
///   least recently used idle systems, and the get returns once they are
///   gone. Systems in use are never passivated, so the host may hold more
///   than `maxLoaded` while more than that are in use.
///
/// A passivated system costs the host nothing: its id is not kept
/// (``loadedCount`` counts what is in memory).
///
/// ## Order and failures
///
/// Two gets of one id restore it once. A send to an id being passivated
/// waits until its events are committed, then restores it, so that it is
/// reduced after them, on the state they made. A restore that fails (a
/// record that does not decode) throws ``DurableHostError/restoreFailed(systemID:underlying:)``,
/// and the host stays usable: the next get of that id tries again. A loaded
/// system that stopped (its journal failed, or a holder stopped it) is
/// restored again by its next get, once its committed events are read back.
///
/// ``stop()`` stops every system, and returns once their events are
/// committed and the restores in flight have ended.
public final class DurableHost<State: Codable & Sendable, Event: Codable & Sendable>: Sendable {
  /// Restores the system of an id, from the journal of the host's systems.
  public typealias Restore = @Sendable (_ id: String) async throws -> DurableSystem<State, Event>

  private let restoreSystem: Restore
  private let idleTime: Duration?
  private let maxLoaded: Int?
  private let clock: any Clock<Duration>
  /// The time on `clock` since the host was made.
  private let elapsed: @Sendable () -> Duration
  private let table = Locked(HostTable<State, Event>())

  /// A host that restores its systems with `restore`.
  ///
  /// ```swift
  /// let host = DurableHost<Account, AccountEvent>(maxLoaded: 1_000) { id in
  ///   try await DurableSystem.restore(id: id, writer: writer, initial: Account(), reduce: Account.reduce)
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - passivateAfter: how long a system stays loaded after its last use,
  ///     at least; `nil` to passivate by `maxLoaded` only.
  ///   - maxLoaded: how many systems the host keeps in memory, at most, while
  ///     enough of them are idle; `nil` for no bound.
  ///   - clock: the clock idle time is measured on (a test clock in tests).
  ///   - restore: restores the system of an id; give every system the same
  ///     `JournalWriter`, so that their events are appended together.
  public init(
    passivateAfter: Duration? = .seconds(300),
    maxLoaded: Int? = nil,
    clock: any Clock<Duration> = ContinuousClock(),
    restore: @escaping Restore
  ) {
    if let passivateAfter, passivateAfter <= .zero {
      fatalError("DurableHost(passivateAfter:) needs a positive idle time, not \(passivateAfter).")
    }
    if let maxLoaded, maxLoaded < 1 {
      fatalError("DurableHost(maxLoaded:) needs a bound of at least 1, not \(maxLoaded).")
    }
    self.restoreSystem = restore
    self.idleTime = passivateAfter
    self.maxLoaded = maxLoaded
    self.clock = clock
    elapsed = Self.elapsedTime(on: clock)
  }

  private static func elapsedTime<C: Clock<Duration>>(on clock: C) -> @Sendable () -> Duration {
    let start = clock.now
    return { start.duration(to: clock.now) }
  }

  // MARK: - Systems by id

  /// The system of `id`: the loaded one, or restored from the journal.
  ///
  /// Keeping the system keeps it loaded (it is not idle while anyone but
  /// the host holds it); to let the host passivate it, let it go.
  ///
  /// ```swift
  /// let cart = try await carts.system("cart-42")
  /// print(cart.state.items)
  /// ```
  ///
  /// - Throws: ``DurableHostError/restoreFailed(systemID:underlying:)`` when
  ///   the restore failed; ``DurableHostError/stopped`` once the host
  ///   stopped.
  public func system(_ id: String) async throws(DurableHostError) -> DurableSystem<State, Event> {
    while true {
      let get = table.withLock { table in
        let get = table.get(id, now: elapsed(), passivator: passivator)
        guard case .startRestore = get else { return get }
        // Recorded before the lock is released: a get of the same id made
        // meanwhile waits for this restore rather than start its own.
        let task = Task { try await self.restore(id) }
        table.restoreStarted(id, task)
        return .awaitRestore(task)
      }
      switch get {
      case .ready(let system): return system
      case .stopped: throw .stopped
      case .awaitPassivation(let task): await task.value
      case .awaitRestore(let task): return try await result(of: task)
      case .startRestore: fatalError("DurableHost: a restore was asked for and not started.")
      }
    }
  }

  /// Sends `event` to the system of `id`, restoring it first when it is not
  /// loaded; returns once it is sent (see `DurableSystem.send`).
  ///
  /// ```swift
  /// try await carts.send(.add("tea"), to: "cart-42")
  /// ```
  ///
  /// - Throws: a ``DurableHostError``, as ``system(_:)`` does.
  public func send(
    _ event: Event, to id: String, isolation caller: isolated (any Actor)? = #isolation
  ) async throws(DurableHostError) {
    try await system(id).send(event, isolation: caller)
  }

  /// Sends `event` to the system of `id`, restoring it first when it is not
  /// loaded, and returns once the event is stored in the journal (see
  /// `DurableSystem.sendDurably`).
  ///
  /// ```swift
  /// try await carts.sendDurably(.pay, to: "cart-42")
  /// ```
  ///
  /// - Throws: a ``DurableHostError`` when the system could not be had; the
  ///   system's ``DurableSystemError`` when the event could not be stored.
  public func sendDurably(
    _ event: Event, to id: String, isolation caller: isolated (any Actor)? = #isolation
  ) async throws {
    try await system(id).sendDurably(event, isolation: caller)
  }

  // MARK: - Passivation

  /// Passivates every system idle for at least the host's `passivateAfter`
  /// on its clock, and returns once they are gone: their events are
  /// committed, and they are dropped. Returns their ids.
  ///
  /// ``run()`` calls it as time passes; call it yourself to sweep at
  /// moments of your choosing.
  ///
  /// ```swift
  /// clock.advance(by: .seconds(300))
  /// let passivated = await host.passivateIdleSystems()
  /// ```
  @discardableResult
  public func passivateIdleSystems() async -> [String] {
    guard let idleTime else { return [] }
    let now = elapsed()
    let started = table.withLock { table in
      table.passivateIdle(usedAtOrBefore: now - idleTime, passivator: passivator)
    }
    for (_, task) in started { await task.value }
    return started.map(\.id).sorted()
  }

  /// Passivates idle systems as time passes on the host's clock, until the
  /// calling task is cancelled (at once) or the host stops (at its next
  /// sweep): every `passivateAfter`, it passivates the systems idle that
  /// long, so a system is passivated between one and two idle times after
  /// its last use. Returns at once for a host made with
  /// `passivateAfter: nil`.
  ///
  /// ```swift
  /// let sweeper = Task { await host.run() }
  /// // ...
  /// sweeper.cancel()
  /// ```
  public func run() async {
    guard let idleTime else { return }
    while !Task.isCancelled, !isStopped {
      do {
        try await clock.sleep(for: idleTime)
      } catch {
        return
      }
      await passivateIdleSystems()
    }
  }

  /// The number of systems in memory: loaded, being restored, or being
  /// passivated. A passivated system is not counted, and the host keeps
  /// nothing of it.
  public var loadedCount: Int { table.withLock { $0.inMemoryCount } }

  /// The ids of the systems loaded now (not those being restored or
  /// passivated), in ascending order.
  public var loadedIDs: [String] { table.withLock { $0.loaded.keys.sorted() } }

  // MARK: - Stopping

  /// Stops every system, and returns once the events they reduced are
  /// committed (or their journal failed) and the restores in flight have
  /// ended; from then on every get throws ``DurableHostError/stopped``.
  ///
  /// ```swift
  /// await host.stop()
  /// ```
  public func stop() async {
    let (loaded, restoring, passivating) = table.withLock { $0.stop() }
    for system in loaded { system.stop() }
    for system in loaded { try? await system.waitForCommit() }
    // A restore that ends now finds the host stopped, and stops its system.
    for task in restoring { _ = try? await task.value }
    for task in passivating { await task.value }
  }

  /// Whether ``stop()`` was called.
  public var isStopped: Bool { table.withLock { $0.isStopped } }

  // MARK: - Restoring and passivating

  /// Restores `id`, records it as loaded, then passivates the least
  /// recently used idle systems beyond `maxLoaded`, and returns once they
  /// are gone.
  private func restore(_ id: String) async throws -> DurableSystem<State, Event> {
    let system: DurableSystem<State, Event>
    do {
      system = try await restoreSystem(id)
    } catch {
      table.withLock { $0.restoreFailed(id) }
      throw DurableHostError.restoreFailed(systemID: id, underlying: error)
    }
    let (isLoaded, evicted) = table.withLock { table -> (Bool, [HostTable<State, Event>.Passivation]) in
      let isLoaded = table.restored(id, system, now: elapsed())
      guard isLoaded, let maxLoaded else { return (isLoaded, []) }
      return (isLoaded, table.passivateOverLimit(maxLoaded, keeping: id, passivator: passivator))
    }
    guard isLoaded else {
      system.stop()
      throw DurableHostError.stopped
    }
    for (_, task) in evicted { await task.value }
    return system
  }

  private func result(
    of task: Task<DurableSystem<State, Event>, any Error>
  ) async throws(DurableHostError) -> DurableSystem<State, Event> {
    do {
      return try await task.value
    } catch let error as DurableHostError {
      throw error
    } catch {
      // `restore(_:)` throws nothing else.
      fatalError("DurableHost: a restore ended with \(error), which it never throws.")
    }
  }

  /// Makes the task that passivates `system`: it stops it, waits until its
  /// events are committed (a failed journal ends the wait: what it did not
  /// store was never acknowledged), then frees its id.
  private var passivator: HostTable<State, Event>.Passivator {
    { [table] id, system in
      Task {
        system.stop()
        try? await system.waitForCommit()
        table.withLock { $0.passivated(id) }
      }
    }
  }
}
