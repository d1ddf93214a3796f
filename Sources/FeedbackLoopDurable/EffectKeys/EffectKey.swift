/// The idempotency key of a durable system's effect: the same when a
/// restored system starts the same effect again.
///
/// Effects are at least once across crashes: a restored state starts again
/// the effects it asks for, even those that ran, or half ran, before the
/// crash. Hand the key to the service the effect calls (an
/// `Idempotency-Key` header, a unique column of a dedupe table), and the
/// service can tell a repeat from a new request.
///
/// A key is made of the system's id, the sequence of the state that started
/// the effect (the state in which its trigger took its value: the query's
/// value, the keyed request's arrival), the feedback's name, and, for a
/// keyed feedback (`Feedback.requests`), the request: see
/// <doc:MakingASystemDurable#Effects-resume> for what is and is not stable.
///
/// ```swift
/// .query(\.pendingPayout, name: "payout") { amount in
///   .run { send in
///     let key = DurableEffect.key  // "account-7/12/payout"
///     try await bank.pay(amount, idempotencyKey: key?.description)
///     send(.paidOut(amount))
///   }
/// }
/// ```
public struct EffectKey: Codable, Hashable, Sendable, CustomStringConvertible {
  /// The id of the durable system that started the effect.
  public var systemID: String
  /// The sequence of the state in which the effect's trigger took its
  /// value (0: the system's initial state, before any event).
  public var sequence: UInt64
  /// The name of the feedback that started the effect (`Feedback.name`):
  /// give the feedback a `name:` so that keys stay the same when its code
  /// moves to another line.
  public var feedback: String
  /// The request of a keyed feedback, as text (`"\(id)"`); `nil` for the
  /// other kinds, which run one effect at a time.
  public var request: String?

  public init(systemID: String, sequence: UInt64, feedback: String, request: String? = nil) {
    self.systemID = systemID
    self.sequence = sequence
    self.feedback = feedback
    self.request = request
  }

  /// `systemID/sequence/feedback`, then `/request` for a keyed feedback:
  /// the text to store in a dedupe table.
  public var description: String {
    let base = "\(systemID)/\(sequence)/\(feedback)"
    return request.map { "\(base)/\($0)" } ?? base
  }
}

/// What an effect of a durable system can read about itself.
///
/// This enum has no cases: it is a namespace.
public enum DurableEffect {
  /// The idempotency key of the running effect, inherited by the tasks it
  /// makes; `nil` outside an effect of a durable system (an input, an
  /// event feedback's effect of a plain system, any other task).
  ///
  /// ```swift
  /// .run { send in
  ///   guard let key = DurableEffect.key else { return }
  ///   try await api.charge(order, idempotencyKey: key.description)
  /// }
  /// ```
  ///
  /// A test binds one to run an effect's code alone:
  /// `DurableEffect.$key.withValue(EffectKey(...)) { ... }`.
  @TaskLocal public static var key: EffectKey?
}
