extension Tally {
  /// The tally's reducer: counts each number once, and records gaps,
  /// duplicates and announced milestones.
  ///
  /// ```swift
  /// var tally = Tally()
  /// Tally.reduce(&tally, .count(1))   // tally.counted == 1
  /// ```
  @Sendable
  public static func reduce(_ tally: inout Tally, _ event: TallyEvent) {
    switch event {
    case .count(let number) where number <= tally.last:
      tally.duplicates += 1
    case .count(let number):
      if number > tally.last + 1 { tally.gaps += 1 }
      tally.counted += 1
      tally.last = number
    case .announced(let milestone):
      tally.announced = max(tally.announced, milestone)
    }
  }
}
