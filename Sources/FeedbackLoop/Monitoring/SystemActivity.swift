/// One thing a running system did, as its monitor sees it.
///
/// The testing kit, the logging monitor and the debugger are all built on
/// these. A monitor receives them synchronously, on the thread that runs the
/// loop, in the order they happened; with one exception: an event refused at
/// the door (``DiscardReason/bufferFull``, ``DiscardReason/systemStopped``)
/// never reaches the loop, so its `.eventDiscarded` is reported on the
/// thread that sent it, possibly while the loop reports something else. A
/// monitor is `@Sendable` and must be safe to call from two threads at once.
///
/// It grows: a later version may add a kind of activity. End a `switch`
/// over it with `default:`, or, to hear of new kinds, list every case and
/// end with `@unknown default:`, which makes a new case a warning in your
/// build, not an error.
///
/// ```swift
/// SystemMonitor<State, Event> { activity in
///   switch activity {
///   case .reduced(let event, _, let state, _): print(event, state)
///   case .effectFailed(let effect, let error): print(effect, error)
///   default: break
///   }
/// }
/// ```
public enum SystemActivity<State: Sendable, Event: Sendable>: Sendable {
  /// The system started from `initial`; every feedback has seen it.
  case started(initial: State)
  /// `event` was reduced: the state went from `from` to `to` (they may be equal).
  case reduced(event: Event, from: State, to: State, source: EventSource)
  /// A feedback with the ``ExecutionStrategy/queue`` strategy queued an
  /// effect behind the running one; `.effectStarted` follows when it starts,
  /// or `.effectCancelled` if it is cancelled first.
  case effectQueued(EffectID)
  /// A feedback started an effect.
  case effectStarted(EffectID)
  /// An effect was cancelled: replaced, its query became `nil`, its key was
  /// removed, or the system stopped.
  case effectCancelled(EffectID)
  /// An effect ended on its own.
  case effectFinished(EffectID)
  /// An effect threw an error that its `catch` did not turn into an event.
  case effectFailed(EffectID, any Error)
  /// An event was accepted but will never be reduced, and why.
  case eventDiscarded(Event, reason: DiscardReason)
  /// The system stopped: effects and inputs are cancelled, no event is reduced any more.
  case stopped
}

/// Who sent an event that was reduced.
///
/// It grows: a later version may add a case. End a `switch` over it with
/// `default:` or `@unknown default:`, so that a new case does not break your
/// build.
public enum EventSource: Sendable, Hashable, CustomStringConvertible {
  /// ``System/send(_:isolation:)`` or an ``Input``.
  case external
  /// A feedback's own task: an input bound to an asynchronous sequence, or
  /// the general form ``Feedback/events(name:fileID:line:_:)``.
  case feedback(FeedbackID)
  /// An effect of a feedback.
  case effect(EffectID)

  public var description: String {
    switch self {
    case .external: "external"
    case .feedback(let id): "\(id)"
    case .effect(let id): "\(id)"
    }
  }
}

/// Why an event never reached the reducer.
///
/// It grows: a later version may add a reason, so it is a set of values, not
/// an enum, and a new reason breaks no one's build. Compare it, match it
/// with `case .bufferFull:`, and end a `switch` over it with `default:`.
///
/// ```swift
/// SystemMonitor<State, Event> { activity in
///   guard case .eventDiscarded(let event, let reason) = activity else { return }
///   switch reason {
///   case .bufferFull: metrics.dropped(event)
///   case .systemStopped: break
///   default: logger.debug("discarded \(event): \(reason)")
///   }
/// }
/// ```
public struct DiscardReason: Sendable, Hashable, CustomStringConvertible {
  @usableFromInline enum Value: Sendable, Hashable {
    case effectCancelled(EffectID)
    case systemStopped
    case bufferFull
    case noSuchChild(String)
  }

  @usableFromInline let value: Value

  @inlinable init(_ value: Value) { self.value = value }

  /// Its effect was cancelled before the event was reduced (G4).
  @inlinable
  public static func effectCancelled(_ effect: EffectID) -> DiscardReason { DiscardReason(.effectCancelled(effect)) }
  /// The system had stopped.
  public static let systemStopped = DiscardReason(.systemStopped)
  /// The bounded event buffer was full (G14).
  public static let bufferFull = DiscardReason(.bufferFull)
  /// The event, or the part of it meant for a child feature or child
  /// system, named a child that does not exist (an optional child that is
  /// `nil`, an id not in the parent's state); the text says which.
  @inlinable
  public static func noSuchChild(_ why: String) -> DiscardReason { DiscardReason(.noSuchChild(why)) }

  /// The cancelled effect, if the event was discarded because its effect
  /// was cancelled.
  public var cancelledEffect: EffectID? {
    if case .effectCancelled(let effect) = value { effect } else { nil }
  }

  /// Which child was missing, and why, if the event named a child that
  /// does not exist.
  public var missingChild: String? {
    if case .noSuchChild(let why) = value { why } else { nil }
  }

  /// The reason's name, and its detail if it has one:
  /// `effectCancelled(...)`, `systemStopped`, `bufferFull`, `noSuchChild: ...`.
  public var description: String {
    switch value {
    case .effectCancelled(let effect): "effectCancelled(\(effect))"
    case .systemStopped: "systemStopped"
    case .bufferFull: "bufferFull"
    case .noSuchChild(let why): "noSuchChild: \(why)"
    }
  }
}

/// Receives every ``SystemActivity`` of a system: reductions and the life of
/// every effect.
///
/// A system without a monitor pays nothing for it. With one, each reduction
/// copies the state before reducing, so that `.reduced` can show both.
///
/// ```swift
/// let system = System(
///   initial: 0, reduceReturning: { $0 + $1 }, feedbacks: [],
///   monitor: .logging(to: Logger(label: "counter"))
/// )
/// ```
public struct SystemMonitor<State: Sendable, Event: Sendable>: Sendable {
  @usableFromInline package let report: @Sendable (SystemActivity<State, Event>) -> Void
  /// A shortcut for `.reduced`, the one report per event: the same as
  /// `report(.reduced(...))`, without building the enum. Built, handed
  /// over and destroyed per event, the generic enum went through its value
  /// witnesses (a copy to match it, a destroy after the call: 13% of
  /// the in-memory recording benchmark). The source comes as a tag and a closure: whether it is
  /// outside, the common case, is read from the tag without the `EventSource` (read back
  /// just after the core wrote it, it stalled the store forwarding: 8% of
  /// the in-memory recording benchmark), and any other source is built only when asked for. `nil` for a
  /// monitor made from one closure; ``combining(_:)`` leaves it out, and
  /// each combined monitor's `report` still gets `.reduced`.
  @usableFromInline let reduced: ReductionShortcut?
  /// Wraps the start of each effect's task (`package`): a durable system
  /// binds the effect's idempotency key as a task-local value there, which
  /// the task inherits; a tracing monitor starts the effect's span and
  /// makes it the task's current context. `nil` for every other monitor.
  @usableFromInline package var effectTaskScope: EffectTaskScope?

  /// The type of ``effectTaskScope``: the effect; the context
  /// ``captureSendContext`` took where the event whose state starts the
  /// effect was sent (`nil` if none was current, or the effect was started
  /// by the initial state); and the start of its task.
  @usableFromInline package typealias EffectTaskScope =
    @Sendable (_ effect: EffectID, _ sendContext: (any Sendable)?, _ startTask: () -> Task<Void, Never>) -> Task<
      Void, Never
    >

  /// Called on the sender's thread at each send (`package`), to take the
  /// context current there (a tracing monitor's service context): the core
  /// keeps it with the event and hands it to ``effectTaskScope`` for the
  /// effects that the event's state starts. `nil` (most monitors): nothing
  /// is taken, and a send costs what it costs without a monitor.
  @usableFromInline package var captureSendContext: (@Sendable () -> (any Sendable)?)?

  /// Told how many events other threads sent that wait for the loop
  /// (`package`, a metrics monitor's gauge): each time the loop takes them
  /// from its shared queue, and 0 when it goes idle after that. Called on
  /// the loop's thread.
  @usableFromInline package var eventsWaiting: (@Sendable (Int) -> Void)?

  /// Told how many events were reduced since it was last told (`package`, a
  /// metrics monitor's counter), instead of a `.reduced` report per event:
  /// when the loop goes idle, after every 1,024 reductions of a longer
  /// drain (so a counter read during a burst lags by fewer), and before
  /// ``SystemActivity/stopped``.
  /// Called on the loop's thread. A monitor with it reads no reduction's
  /// states: the core does not copy the state before each reduction. Only
  /// ``init(_:countingReductions:describingTriggers:)`` sets it;
  /// ``combining(_:)`` leaves it out, and each combined monitor's `report`
  /// gets `.reduced` instead.
  @usableFromInline package private(set) var countReductions: (@Sendable (Int) -> Void)?

  /// Whether the monitor reads what started each effect
  /// (``EffectID/trigger``, a description of the state): `false` for a
  /// monitor that reads no state (a metrics monitor's), for which the core
  /// describes none.
  @usableFromInline package private(set) var describesTriggers = true

  /// The `.reduced` shortcut's type: the event, the states before and after,
  /// whether the event came from outside (and through which send), and its
  /// source.
  @usableFromInline package typealias ReductionShortcut =
    @Sendable (
      _ event: Event, _ from: State, _ to: State, _ origin: ReductionOrigin, _ source: () -> EventSource
    ) -> Void

  /// A monitor that calls `receive` for each activity.
  ///
  /// Every activity comes from the thread that runs the loop at that moment
  /// (the main actor for a main-actor system), one at a time and in order,
  /// with one exception: an event refused at the door
  /// (``DiscardReason/bufferFull``, ``DiscardReason/systemStopped``) is
  /// reported on the thread that sent it, at the same time as the loop's
  /// own reports and other senders' refusals. So `receive` must be safe to
  /// call from several threads at once (it is `@Sendable`); what it does
  /// with the loop's reports needs no lock of its own against the loop.
  /// ``SystemActivity/stopped`` comes from the thread that stopped the
  /// system (or, stopped from inside the loop, the loop's thread).
  public init(_ receive: @escaping @Sendable (SystemActivity<State, Event>) -> Void) {
    self.report = receive
    self.reduced = nil
  }

  /// A monitor with a shortcut for `.reduced` (the recorder's): `reduced`
  /// must do what `report(.reduced(event:from:to:source:))` does, which
  /// is still called by monitors that combine this one.
  @inlinable package init(
    _ receive: @escaping @Sendable (SystemActivity<State, Event>) -> Void, reduced: @escaping ReductionShortcut
  ) {
    self.report = receive
    self.reduced = reduced
  }

  /// A monitor that counts reductions instead of reading them (a metrics
  /// monitor's, or a tracing monitor's with a count it ignores):
  /// `countReductions` is told how many events were reduced since it was
  /// last told (see ``countReductions``), and `receive` gets every other
  /// activity, with each effect's trigger described only if
  /// `describingTriggers`. Combined with others (``combining(_:)``),
  /// `receive` gets `.reduced` too, so it must count that as one (or
  /// ignore it).
  @inlinable package init(
    _ receive: @escaping @Sendable (SystemActivity<State, Event>) -> Void,
    countingReductions countReductions: @escaping @Sendable (Int) -> Void,
    describingTriggers: Bool
  ) {
    self.report = receive
    self.reduced = nil
    self.countReductions = countReductions
    self.describesTriggers = describingTriggers
  }

  /// Reports a reduction: through the shortcut if there is one.
  @inlinable @inline(__always) package func reportReduction(
    _ event: Event, from before: State, to after: State, origin: ReductionOrigin, source: () -> EventSource
  ) {
    // Called through the optional chain, the shortcut is borrowed: bound
    // with `if let`, its context was retained and released per event.
    if case .none = reduced?(event, before, after, origin, source) {
      report(.reduced(event: event, from: before, to: after, source: source()))
    }
  }

  /// A monitor that forwards every activity to each of `monitors`, in order.
  ///
  /// What a monitor asks of the loop beyond its reports (a tracing
  /// monitor's context, a metrics monitor's gauge) is kept for each of them.
  ///
  /// ```swift
  /// let monitor = SystemMonitor<Int, Int>.combining([.logging(to: logger), recorder.monitor])
  /// ```
  public static func combining(_ monitors: [SystemMonitor]) -> SystemMonitor {
    var combined = SystemMonitor { activity in
      for monitor in monitors { monitor.report(activity) }
    }
    if monitors.contains(where: { $0.captureSendContext != nil }) {
      combined.captureSendContext = {
        let contexts = monitors.map { $0.captureSendContext?() }
        return contexts.contains { $0 != nil } ? CombinedSendContexts(contexts: contexts) : nil
      }
    }
    if monitors.contains(where: { $0.effectTaskScope != nil }) {
      combined.effectTaskScope = { effect, sendContext, startTask in
        let contexts = (sendContext as? CombinedSendContexts)?.contexts
        // Each monitor's scope around the next one's, the last around the task.
        func start(from index: Int) -> Task<Void, Never> {
          guard index < monitors.count else { return startTask() }
          guard let scope = monitors[index].effectTaskScope else { return start(from: index + 1) }
          return scope(effect, contexts?[index] ?? nil) { start(from: index + 1) }
        }
        return start(from: 0)
      }
    }
    if monitors.contains(where: { $0.eventsWaiting != nil }) {
      combined.eventsWaiting = { count in
        for monitor in monitors { monitor.eventsWaiting?(count) }
      }
    }
    return combined
  }
}

/// The contexts that each of a combined monitor's monitors took at a send,
/// by position.
struct CombinedSendContexts: Sendable {
  let contexts: [(any Sendable)?]
}
