/// Where a reduced event came from, as the monitor's reduction shortcut
/// receives it (`package`): whether it was sent from outside, and whether
/// through `System.sendCounted`.
///
/// It is the tag the event carried through the queue (the token's feedback
/// index, negative for an external event), handed over as it is: a plain
/// send's report costs what the flag it replaces cost, and only a reader
/// that asks pays for the comparison.
///
/// ```swift
/// SystemMonitor<State, Event>({ _ in }, reduced: { event, _, after, origin, _ in
///   if origin.isCountedSend { ledger.didReduceCountedSend(event, after) }
/// })
/// ```
@usableFromInline
package struct ReductionOrigin: Sendable, Hashable {
  @usableFromInline let tag: Int32

  @inlinable
  init(_ token: EffectToken) { tag = token.feedback }

  /// Sent from outside: ``System/send(_:isolation:)``, an ``Input``, or
  /// `System.sendCounted`.
  @inlinable package var isExternal: Bool { tag < 0 }

  /// Sent through `System.sendCounted`, and through nothing else: not an
  /// ``Input``'s event, nor a plain send's.
  @inlinable package var isCountedSend: Bool { tag == EffectToken.countedExternal.feedback }
}
