/// What happens to a ``Tally``.
public enum TallyEvent: Codable, Sendable, Equatable {
  /// A client's event number `n` (from 1, one more per event it sends to
  /// the id).
  case count(Int)
  /// The announcement of a milestone is done.
  case announced(Int)
}
