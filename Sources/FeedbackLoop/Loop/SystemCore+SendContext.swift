/// The sender's context, for a monitor that asks for it
/// (``SystemMonitor/captureSendContext``, kept in ``MonitorHooks``): taken
/// at the send, kept with the event while it waits, current while the
/// event is reduced and fanned out, and handed to the scope of each effect
/// that its state starts (SystemCore+Effects.swift).
///
/// A core whose monitor takes no context never comes here: `submit` and
/// `submitFinal` (SystemCore+Drain.swift) test `takesSendContext` once per
/// send.
extension SystemCore {
  /// A send to a system whose monitor takes the sender's context: the
  /// event goes with the context current here, if there is one.
  /// Inlinable, as every step of the loop is: out of line, what it calls
  /// (the whole drain) ran unspecialized, through the generic type's
  /// witnesses (W1spans-noop ten times W1).
  @inlinable
  func submitInContext(_ event: Event, _ token: EffectToken, endsEffect: Bool, callerIsMainActor: Bool) {
    guard let context = hooks.unsafelyUnwrapped.captureSendContext.unsafelyUnwrapped() else {
      return submit(endsEffect ? .finalEvent(event, token) : .event(event, token), callerIsMainActor: callerIsMainActor)
    }
    submit(
      .eventInContext(EventInContext(event, token, endsEffect: endsEffect, context: context)),
      callerIsMainActor: callerIsMainActor)
  }

  /// Reduces an event that came with its sender's context, and fans its
  /// state out with that context current for the effects it starts.
  @inlinable
  func processEventInContext(_ sent: EventInContext<Event>) {
    withSendContext(sent.context) { processEvent(sent.event, sent.token, endsEffect: sent.endsEffect) }
  }

  /// An immediate effect's event, queued by the owner: it keeps the context
  /// of the event whose state started the effect.
  @inlinable @inline(__always)
  func enqueueEventFromLoop(_ event: Event, _ token: EffectToken) {
    if let context = hooks?.currentContext {
      enqueueFromLoop(.eventInContext(EventInContext(event, token, endsEffect: false, context: context)))
    } else {
      enqueueFromLoop(.event(event, token))
    }
  }

  /// Runs `body` with `context` current (an event's, or that of the event
  /// that asked for an effect which waited its turn), then the one before.
  /// Only the thread that owns the loop calls it.
  @inlinable
  func withSendContext(_ context: (any Sendable)?, _ body: () -> Void) {
    guard let hooks else { return body() }
    let outer = hooks.currentContext
    hooks.currentContext = context
    body()
    hooks.currentContext = outer
  }
}
