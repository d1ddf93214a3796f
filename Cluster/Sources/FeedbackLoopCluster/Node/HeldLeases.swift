/// The shards a node holds, as far as it knows, and until when its own
/// clock lets it count on them: a lease renewed at instant *t* is counted
/// until *t* plus the lease, *t* taken before the renewal was sent.
struct HeldLeases {
  private var shards: Set<Int> = []
  private var validUntil: ContinuousClock.Instant?
  private(set) var hasLeft = false
  var isRefreshing = false

  /// The shards held, whatever the clock says.
  var held: Set<Int> { shards }

  /// The shards still counted at `instant`.
  func valid(at instant: ContinuousClock.Instant) -> Set<Int> {
    guard let validUntil, instant < validUntil else { return [] }
    return shards
  }

  /// Records the shards a renewal kept, and returns those held before it.
  mutating func renewed(_ kept: Set<Int>, until deadline: ContinuousClock.Instant) -> Set<Int> {
    let before = shards
    shards = kept
    validUntil = deadline
    return before
  }

  mutating func claimed(_ claimed: [Int], until deadline: ContinuousClock.Instant) {
    shards.formUnion(claimed)
    validUntil = deadline
  }

  /// Stops counting `released` before the database hears of it: nothing
  /// may be done for them from here on.
  mutating func releasing(_ released: [Int]) {
    shards.subtract(released)
  }

  mutating func leave() {
    hasLeft = true
    shards = []
    validUntil = nil
  }
}
