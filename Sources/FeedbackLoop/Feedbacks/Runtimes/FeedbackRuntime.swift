/// The running part of one feedback inside one system: what it remembers
/// between states (its last query, its effects in flight).
///
/// Every method and handler is called by the system's draining thread, one
/// call at a time, so a runtime needs no lock of its own.
///
/// The per-state and per-event work is a closure handed to the system
/// (``onEachState(_:)``, ``onEachEvent(_:)``) rather than an override, because the closure is built by
/// the feedback's `@inlinable` initializer in the user's module, where
/// `State` and `Event` are concrete types: the hot path then runs
/// specialized code, with no generic metadata looked up per event
/// (BENCHMARKS.md shows what that costs). Rare work (starting, ending
/// effects' tasks, stopping) stays in overridable methods.
@usableFromInline
class FeedbackRuntime<State: Sendable, Event: Sendable> {
  @usableFromInline let id: FeedbackID
  /// The system that owns this runtime; it outlives it (it drops its
  /// runtimes when it stops, and effects' tasks hold the system, not the runtime).
  /// Unowned and unchecked for that reason: a checked `unowned` would cost
  /// a reference count check on every access from the per-event handlers.
  @usableFromInline unowned(unsafe) let core: SystemCore<State, Event>

  @usableFromInline
  init(id: FeedbackID, core: SystemCore<State, Event>) {
    self.id = id
    self.core = core
  }

  /// Has `handler` called with each new state, after each reduction and for
  /// the initial state, in the order of the feedbacks, with where the system
  /// stores it (see ``StateHandler``). Called while the system is made; the
  /// system keeps the handler, not the runtime, so that a runtime carries no
  /// field for a handler it may not have.
  @inlinable
  final func onEachState(_ handler: @escaping StateHandler<State>) {
    StateLink.append(StateLink(handler), to: &core.firstStateLink)
  }

  /// Has `handler` called with each event and the state it produced, after
  /// each reduction; see ``onEachState(_:)``.
  @inlinable
  final func onEachEvent(_ handler: @escaping EventHandler<State, Event>) {
    EventLink.append(EventLink(handler), to: &core.firstEventLink)
  }

  /// Called once, before the initial state is delivered: inputs start here.
  @usableFromInline
  func start() {}

  /// The task of effect `number` ended. A failure is reported (G12).
  @usableFromInline
  func effectEnded(_ number: UInt64, outcome: EffectOutcome) {
    if case .failed(let error) = outcome { core.reportUnmappedError(error, of: effectID(number)) }
  }

  /// Whether the events of effect `number`, at or under this feedback's
  /// watermark in `SystemCore.watermarks`, are to be dropped: the runtimes
  /// that start effects answer from their ``EffectBook``. A runtime that
  /// starts none never raises its watermark from 0, so the loop never asks.
  @usableFromInline
  func isCancelled(_ number: UInt64) -> Bool { false }

  /// A value the feedback's own task produced, handed to the loop.
  @usableFromInline
  func onControl(_ value: any Sendable) {}

  /// The system stops: cancel everything.
  @usableFromInline
  func stop() {}

  /// The public identity of effect `number`, for monitors.
  @usableFromInline
  func effectID(_ number: UInt64) -> EffectID {
    EffectID(feedback: id, number: number, trigger: nil)
  }
}
