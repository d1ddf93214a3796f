/// The system the cluster service runs, one per id: a tally of numbered
/// events, which says whether any was lost, doubled or reordered.
///
/// A client numbers the events it sends to one id 1, 2, 3... (``TallyEvent/count(_:)``).
/// The reducer counts each number once: a number at or below the last one
/// counted is a client's retry of an event already counted (its first try
/// reached the service, its answer did not) and is only counted as a
/// duplicate; a number beyond the next one means an event before it never
/// arrived, and is counted as a gap. So after a client sent 1...n, and
/// whatever crashed meanwhile, `counted == n`, `last == n` and `gaps == 0`
/// say that nothing was lost.
///
/// ```swift
/// var tally = Tally()
/// Tally.reduce(&tally, .count(1))
/// Tally.reduce(&tally, .count(1))   // a retry: a duplicate, not counted again
/// Tally.reduce(&tally, .count(3))   // 2 never came: a gap
/// // tally.counted == 2, tally.duplicates == 1, tally.gaps == 1
/// ```
///
/// Every ``milestoneStep`` counted events, an effect announces the
/// milestone (``Tally/feedbacks(announce:)``), and the state records it
/// (``announced``) once the announcement is done.
public struct Tally: Codable, Sendable, Equatable {
  /// How many events were counted: each number once.
  public var counted = 0
  /// The highest number counted.
  public var last = 0
  /// How many events carried a number already counted.
  public var duplicates = 0
  /// How many events skipped a number: some event before them was lost.
  public var gaps = 0
  /// The last milestone announced (a multiple of ``milestoneStep``).
  public var announced = 0

  /// How many counted events make a milestone.
  public static let milestoneStep = 10

  public init(counted: Int = 0, last: Int = 0, duplicates: Int = 0, gaps: Int = 0, announced: Int = 0) {
    self.counted = counted
    self.last = last
    self.duplicates = duplicates
    self.gaps = gaps
    self.announced = announced
  }

  /// The milestone that is reached and not announced yet, if any: what the
  /// announcing effect runs for.
  public var milestoneToAnnounce: Int? {
    let reached = counted / Self.milestoneStep * Self.milestoneStep
    return reached > announced ? reached : nil
  }
}
