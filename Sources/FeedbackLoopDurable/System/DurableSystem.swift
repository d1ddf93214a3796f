import FeedbackLoop
import Foundation

/// A `System` whose events are written to a ``Journal``, so
/// that its state survives a crash of the process, and whose effects start
/// only once the state that asked for them is stored.
///
/// A durable system is restored, never just created: ``restore(id:writer:initial:reduce:feedbacks:snapshots:codec:schemaVersion:migrations:isolation:environment:monitor:caller:)``
/// reads the system's latest snapshot (or takes `initial` when there is
/// none), folds the events stored after it through the reducer, and starts
/// the system with that state. Like any system's initial state, the
/// restored state reaches every feedback first (G1), so query, predicate and
/// keyed feedbacks start the effects it needs again. Replayed events are
/// folded before the system starts: event-triggered feedbacks
/// (`Feedback.onEvent`) and observers do not see them again.
///
/// ```swift
/// let writer = JournalWriter(journal: journal)
/// let cart = try await DurableSystem.restore(
///   id: "cart-42", writer: writer,
///   initial: Cart(), reduce: Cart.reduce, feedbacks: Cart.feedbacks(api: api),
///   snapshots: .every(100))
/// cart.send(.add("tea"))             // reduced now, written soon
/// try await cart.sendDurably(.pay)   // returns once `.pay` is stored
/// ```
///
/// ## What is durable, and when
///
/// ``send(_:isolation:)`` is synchronous, as a system's is: the event is
/// reduced at once and queued for the journal's ``JournalWriter``, which
/// appends the events of every system that uses it in one transaction.
/// The loop never waits for the disk. A caller that needs to know the event
/// is stored awaits ``sendDurably(_:isolation:)`` (or
/// ``waitForCommit()``): they return once it is (G16), and throw when it
/// cannot be.
///
/// - Effects: a state's effects start only after the events that produced
///   it are committed (G16): the system's effects run on an executor that
///   holds their tasks until then. Observers (``observe(isolation:_:onStop:)``,
///   ``states(buffering:isolation:)``) and ``state`` see a state as soon as it is
///   reduced, before it is stored: a crash may lose a state an observer saw.
///   What waits is the effects' tasks: a feedback's own synchronous code
///   (its query, the closure that makes the effect) runs when the state is
///   reduced, so it must not act on the world. An effect given an executor
///   of its own (`Effect.executorPreference(_:)`) is not held either: do
///   not give one to an effect that must wait.
/// - Effects are at least once across crashes: a restored state starts the
///   effects it asks for again, even if they ran before the crash. Each
///   reads its idempotency key, the same when it starts again:
///   ``DurableEffect/key``.
/// - One writer (G17): a restore claims the system (``Journal/claim(_:)``),
///   and the journal refuses the appends of every earlier owner of the id:
///   their epoch is stale, whatever sequence they expect, as when another
///   process restored the same id while this one was paused. It also
///   refuses an append whose expected sequence is stale. The refused system
///   stops, every awaiting caller gets
///   ``DurableSystemError/refusedByJournal(_:)`` (which names the epochs),
///   and nothing is merged. The latest restore of an id owns it.
/// - Failures: when the journal fails to append, the system stops rather
///   than acknowledge what is not stored; awaiting callers get
///   ``DurableSystemError/journalFailed(systemID:underlying:)``, and the
///   error is logged with the environment's logger. Every acknowledged
///   event is in the journal: restore the system from it once the journal
///   works again.
/// - Inputs: an `Input`'s events, and the events of the system's effects,
///   are reduced and stored as a caller's are, but nobody awaits them:
///   ``sendDurably(_:isolation:)`` returns once its caller's own event is
///   stored, whatever an `Input` sent before or after it, and
///   ``waitForCommit()`` once every event reduced so far is, an `Input`'s
///   included.
/// - Stopping: ``stop(isolation:)`` stops the loop; the events it reduced
///   before are still written.
///
/// The system's environment must keep the default unbounded event buffer:
/// the writer's queue is the one to bound (``JournalWriter/QueuePolicy``).
public final class DurableSystem<State: Codable & Sendable, Event: Codable & Sendable>: Sendable {
  /// The system's id in its journal.
  public let id: String
  /// The running system; `package` for the UI layer's store, which
  /// observes it and sends through the durable system.
  @usableFromInline package let system: System<State, Event>
  @usableFromInline let ledger: DurableLedger<State, Event>
  /// The user's monitor, which the ledger keeps.
  var monitor: SystemMonitor<State, Event>? { ledger.userMonitor }

  @usableFromInline
  init(
    id: String, system: System<State, Event>, ledger: DurableLedger<State, Event>,
  ) {
    self.id = id
    self.system = system
    self.ledger = ledger
  }

  deinit {
    system.stop(isolation: nil)
    ledger.systemStopped()
  }

  /// Restores the system `id` from its writer's journal and starts it.
  ///
  /// The state it starts with is the latest snapshot's (or `initial` when
  /// none is stored) with every event stored after it folded in, in order.
  /// A record that an older schema version wrote is brought to
  /// `schemaVersion` by `migrations`, one version at a time; what the
  /// system writes afterwards is of `schemaVersion`. A record that does not
  /// decode (the error names the field), that no registered migration
  /// reaches, whose migration throws, or that a newer schema version wrote,
  /// stops the restore with an error that names the system and the
  /// sequence, and writes nothing.
  ///
  /// The restore claims the id in the journal (``Journal/claim(_:)``) and
  /// reads its history in that claim: from then on the journal refuses the
  /// appends of every earlier owner of the id, in this process or another,
  /// whatever sequence they expect (G17), even when the restore then stops
  /// on a record that does not decode.
  ///
  /// ```swift
  /// let counter = try await DurableSystem.restore(
  ///   id: "counter", writer: JournalWriter(journal: InMemoryJournal()),
  ///   initial: 0, reduce: { count, step in count += step })
  /// try await counter.sendDurably(2)
  /// ```
  ///
  /// - Parameters:
  ///   - id: the system's id in the journal.
  ///   - writer: the writer of the journal, shared by the systems that use it.
  ///   - initial: the state of a system with nothing stored.
  ///   - reduce: the reducer; it must be the same function that reduced the
  ///     stored events (G13).
  ///   - feedbacks: the feedbacks, in the order they see each state.
  ///   - snapshots: when to store a snapshot with the events.
  ///   - codec: how events and states become bytes; JSON by default.
  ///   - schemaVersion: the version of `State` and `Event` that this code
  ///     writes and reads.
  ///   - migrations: how records of older versions become this version's.
  ///   - isolation: where the reducer and the feedbacks run (G10).
  ///   - environment: the clock, effect executor and logger (its event
  ///     buffer must be unbounded).
  ///   - monitor: receives every reduction and effect.
  ///   - caller: the caller's isolation, filled in by the compiler.
  // Inlinable, as the core's `System.init` is: the system, and the monitor
  // that records each reduction, are made in the caller's module, where the
  // compiler specializes the loop and the ledger's per-event path for the
  // app's `State` and `Event`. Made here, unspecialized, each event cost
  // about 1 µs of runtime metadata lookups. The reading of the journal and
  // the fold stay here (`restoredParts`). The codec is an existential, not
  // a generic parameter: a caller that holds its codec as `any DurableCodec`
  // (chosen at run time) would otherwise open it into a generic context
  // where `restore` is not specialized either, whatever `State` and `Event`
  // are (D4 measured 800 ns an event so, against about 200).
  @inlinable
  public static func restore(
    id: String,
    writer: JournalWriter,
    initial: State,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>] = [],
    snapshots: SnapshotPolicy<State> = .every(100),
    codec: any DurableCodec = JSONDurableCodec(),
    schemaVersion: Int = 1,
    migrations: DurableMigrations<State, Event> = DurableMigrations(),
    isolation: SystemIsolation = .sendingThread,
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<State, Event>? = nil,
    caller: isolated (any Actor)? = #isolation
  ) async throws -> DurableSystem {
    let restored = try await restoredParts(
      id: id, writer: writer, initial: initial, reduce: reduce, feedbacks: feedbacks, snapshots: snapshots,
      codec: codec, schemaVersion: schemaVersion, migrations: migrations, environment: environment, monitor: monitor,
      caller: caller)
    let system = System(
      initial: restored.state, reduce: reduce, feedbacks: feedbacks, isolation: isolation,
      environment: restored.environment,
      monitor: ledgerMonitor(restored.ledger), caller: caller)
    restored.ledger.setSystem(system)
    return DurableSystem(id: id, system: system, ledger: restored.ledger)
  }

  /// The restored state, and the parts of the durable system around its
  /// `System`: its ledger, its effects' keys and the environment whose
  /// executor holds the effects until their state is committed.
  @usableFromInline
  static func restoredParts(
    id: String,
    writer: JournalWriter,
    initial: State,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [Feedback<State, Event>],
    snapshots: SnapshotPolicy<State>,
    codec: any DurableCodec,
    schemaVersion: Int,
    migrations: DurableMigrations<State, Event>,
    environment: SystemEnvironment,
    monitor: SystemMonitor<State, Event>?,
    caller: isolated (any Actor)?
  ) async throws -> (state: State, ledger: DurableLedger<State, Event>, environment: SystemEnvironment) {
    guard environment.eventBuffer == .unbounded else {
      fatalError(
        "DurableSystem \"\(id)\": its environment's event buffer must be unbounded, not \(environment.eventBuffer): "
          + "an event dropped by the buffer would leave its sender waiting for an acknowledgement; "
          + "bound the journal writer's queue instead (JournalWriter(journal:queue:)).")
    }
    let decoder = DurableRecordDecoder(
      systemID: id, codec: codec, schemaVersion: schemaVersion, migrations: migrations)
    // A claim, not a load: from here on the journal refuses the appends of
    // any earlier owner of the id (G17), even one whose sequence matches.
    let claim = try await writer.journal.claim(id)
    let history = claim.history
    var state = initial
    var foldStart: UInt64 = 0
    var snapshotOrigins: [EffectOrigin] = []
    if let snapshot = history?.snapshot {
      state = try decoder.state(snapshot)
      foldStart = snapshot.sequence
      // Absent from a snapshot written without them: the keys then start at the snapshot.
      snapshotOrigins = (try? codec.decode(SnapshotEffectOrigins.self, from: snapshot.payload))?.effectOrigins ?? []
    }
    // The folded states let the restored effects find their keys' sequences.
    // A system with nothing stored needs none: its effects' sequence is 0,
    // the one the keys give an effect of the current state.
    let hasHistory = history.map { $0.snapshot != nil || !$0.events.isEmpty } ?? false
    var folded = feedbacks.isEmpty || !hasHistory ? [] : [state]
    for record in history?.events ?? [] {
      reduce(&state, try decoder.event(record))
      if !feedbacks.isEmpty { folded.append(state) }
    }
    let committed = history?.lastSequence ?? 0
    let gate = CommitGate(underlying: environment.effectExecutor ?? globalConcurrentExecutor, committed: committed)
    let keys = EffectKeyBook(
      systemID: id, feedbacks: feedbacks, folded: folded, foldStart: foldStart, clock: environment.clock,
      snapshotOrigins: snapshotOrigins)
    let ledger = DurableLedger<State, Event>(
      systemID: id, epoch: claim.epoch, writer: writer, gate: gate, committed: committed, codec: codec,
      schemaVersion: schemaVersion,
      snapshots: snapshots, logger: environment.logger, keys: keys, monitor: monitor)
    var gatedEnvironment = environment
    gatedEnvironment.effectExecutor = gate
    return (state, ledger, gatedEnvironment)
  }

  /// The monitor that tells the ledger of each reduction, then the user's
  /// monitor. Made with the core's `.reduced` shortcut (`package`): built
  /// as an enum per event, the report cost the loop a copy and a destroy of
  /// it through its value witnesses.
  /// It also follows the effects for their keys, and binds each effect's
  /// key to its task (``DurableEffect/key``). Each closure captures the
  /// ledger alone (which keeps the keys and the user's monitor), so that
  /// none needs an allocation of its own.
  @inlinable
  static func ledgerMonitor(_ ledger: DurableLedger<State, Event>) -> SystemMonitor<State, Event> {
    var monitor = SystemMonitor<State, Event>(
      { activity in
        if case .reduced(let event, _, let state, _) = activity {
          // The core reports this monitor's reductions through the
          // shortcut below: only a caller of `report` itself comes here,
          // and its event is none of the durable system's sends.
          ledger.didReduce(event, state: state, isCountedSend: false)
          ledger.keys?.didReduce()
        } else {
          ledger.keys?.record(activity, current: ledger.gate.latestReduced)
        }
        ledger.userMonitor?.report(activity)
      },
      reduced: { event, before, after, origin, source in
        ledger.didReduce(event, state: after, isCountedSend: origin.isCountedSend)
        ledger.keys?.didReduce()
        ledger.userMonitor?.reportReduction(event, from: before, to: after, origin: origin, source: source)
      })
    monitor.effectTaskScope = { effect, sendContext, startTask in
      // The user's monitor's own scope (a tracing monitor's span) inside the
      // key's, with the context it took at the send. Read here, so that the
      // closure captures the ledger alone (no context of its own).
      let userScope = ledger.userMonitor?.effectTaskScope
      guard let keys = ledger.keys else {
        return userScope?(effect, sendContext, startTask) ?? startTask()
      }
      guard let userScope else { return keys.startTask(of: effect, startTask) }
      return keys.startTask(of: effect) { userScope(effect, sendContext, startTask) }
    }
    monitor.captureSendContext = ledger.userMonitor?.captureSendContext
    monitor.eventsWaiting = ledger.userMonitor?.eventsWaiting
    return monitor
  }

  // MARK: - Sending

  /// Sends an event, from any thread, task or actor; it is reduced as a
  /// system's `send` reduces it, and written to the journal soon after.
  ///
  /// An event the writer's queue refuses
  /// (``JournalWriter/QueuePolicy/refuseNewEvents(limit:)``) is not reduced,
  /// and is reported to the monitor as
  /// `DiscardReason.bufferFull`.
  ///
  /// ```swift
  /// cart.send(.add("tea"))
  /// ```
  public func send(_ event: Event, isolation caller: isolated (any Actor)? = #isolation) {
    guard ledger.writer.hasRoom else {
      monitor?.report(.eventDiscarded(event, reason: .bufferFull))
      return
    }
    ledger.countSend()
    system.sendCounted(event, isolation: caller)
  }

  /// Sends an event, and returns once it is stored in the journal, with
  /// every event reduced before it.
  ///
  /// ```swift
  /// try await cart.sendDurably(.pay)
  /// // `.pay` survives a crash from here on.
  /// ```
  ///
  /// - Throws: a ``DurableSystemError``: the journal failed or refused the
  ///   append (the system stopped), the writer's queue is full, or the
  ///   system stopped before reducing the event. The event is then not
  ///   known to be stored. Cancelling the calling task ends the wait with
  ///   `CancellationError`; the event is sent all the same, and may be
  ///   stored.
  public func sendDurably(_ event: Event, isolation caller: isolated (any Actor)? = #isolation) async throws {
    do {
      try ledger.willSendCounted()
    } catch {
      if case .writerQueueFull = error { monitor?.report(.eventDiscarded(event, reason: .bufferFull)) }
      throw error
    }
    system.sendCounted(event, isolation: caller)
    _ = try await ledger.waitForSentEvent()
  }

  /// Returns once every event reduced so far is stored in the journal.
  ///
  /// ```swift
  /// cart.send(.add("tea"))
  /// cart.send(.add("milk"))
  /// try await cart.waitForCommit()
  /// ```
  ///
  /// - Throws: a ``DurableSystemError`` when they cannot be stored;
  ///   `CancellationError` when the calling task is cancelled.
  public func waitForCommit() async throws {
    _ = try await ledger.waitForCommit()
  }

  /// The sequence of the latest event stored in the journal.
  public var committedSequence: UInt64 { ledger.committedSequence }

  /// The epoch of the journal claim this system was restored with
  /// (``Journal/claim(_:)``): its appends are refused once the id is
  /// claimed again.
  ///
  /// ```swift
  /// let first = try await DurableSystem.restore(id: "cart-42", writer: writer, initial: Cart(), reduce: Cart.reduce)
  /// let second = try await DurableSystem.restore(id: "cart-42", writer: writer, initial: Cart(), reduce: Cart.reduce)
  /// // second.epoch == first.epoch + 1: `first` is refused on its next append.
  /// ```
  public var epoch: UInt64 { ledger.epoch }

  /// The error that stopped the system's durability (and the system), or
  /// `nil` while it is durable.
  public var failure: DurableSystemError? { ledger.failure }

  // MARK: - The system

  /// The current state, from any thread: the latest reduced, which may not
  /// be stored yet.
  public var state: State { system.state }

  /// Calls `observer` with the current state, then with each new one; see
  /// the core's `System.observe`. An observer may see a state before it is
  /// stored.
  ///
  /// ```swift
  /// let observation = cart.observe { state in print(state.items) }
  /// ```
  public func observe(
    isolation caller: isolated (any Actor)? = #isolation,
    _ observer: @escaping @Sendable (State) -> Void,
    onStop: @escaping @Sendable () -> Void = {}
  ) -> StateObservation {
    system.observe(isolation: caller, observer, onStop: onStop)
  }

  /// The states, from the current one, as an async sequence; see the core's
  /// `System.states(buffering:)`.
  ///
  /// ```swift
  /// for await state in cart.states(buffering: .newest(1)) { render(state) }
  /// ```
  public func states(
    buffering: StateBuffering = .all, isolation caller: isolated (any Actor)? = #isolation
  ) -> StateSequence<State> {
    system.states(buffering: buffering, isolation: caller)
  }

  /// Stops the system (G9); the events it reduced before are still
  /// written, and callers of ``sendDurably(_:isolation:)`` whose event was
  /// not reduced get ``DurableSystemError/stopped(systemID:)``.
  ///
  /// ```swift
  /// cart.stop()
  /// try await cart.waitForCommit()  // everything it reduced is stored
  /// ```
  public func stop(isolation caller: isolated (any Actor)? = #isolation) {
    system.stop(isolation: caller)
    ledger.systemStopped()
  }

  /// Whether the system has stopped.
  public var isStopped: Bool { system.isStopped }

  /// The number of the system's effect and input tasks that have not ended.
  public var runningTaskCount: Int { system.runningTaskCount }
}
