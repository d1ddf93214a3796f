/// The sequence at which a running effect's trigger took its value, as a
/// snapshot keeps it: a restore from the snapshot does not fold the states
/// before it, so it reads there the keys' sequences of the effects that ran
/// when the snapshot was taken.
@usableFromInline
struct EffectOrigin: Codable, Hashable, Sendable {
  /// The feedback's position in the system's list, and its name: both must
  /// match after a restore, or the origin is not used.
  var feedback: Int
  var feedbackName: String
  /// The effect's trigger as text (`EffectID.trigger`).
  var trigger: String?
  var sequence: UInt64
}

/// What a durable system stores for a snapshot: the ``DurableEnvelope``'s
/// version and value, and the effects' origins beside them. A reader of
/// the envelope alone ignores the origins, so a snapshot stays readable as
/// a ``DurableEnvelope``.
struct SnapshotEnvelope<Value: Codable>: Encodable {
  var version: Int
  var value: Value
  var effectOrigins: [EffectOrigin]
}

/// Only the effects' origins of a stored snapshot (none in a snapshot
/// written without them).
struct SnapshotEffectOrigins: Decodable {
  var effectOrigins: [EffectOrigin]?
}
