/// A node's numbering of the events it sends, and the turn of each target:
/// one insert at a time per target, so that the inbox row of a later event
/// is inserted after the row of an earlier one is committed. Any view of
/// the inbox that sees a sender's later row then sees its earlier ones,
/// which is what lets an owner keep a sender's order and recognize a
/// redelivery by its sequence alone.
///
/// The sequences count up over all of the node's sends, whatever their
/// target, so a target's are increasing but not consecutive, and a
/// sequence is never reused: the node keeps only the targets with a send
/// under way (and their waiters), not one record per target it ever sent
/// to. A turn ends by handing the next sequence to the first waiter, so the
/// sends to one target go in the order they asked. A node's run is a new
/// sender, so it starts from 1.
struct SenderSequences {
  typealias Waiter = CheckedContinuation<UInt64, Never>

  private var last: UInt64 = 0
  /// The targets with a send under way, and the sends waiting for them.
  private var turns: [String: [Waiter]] = [:]

  /// The next sequence when the turn of `target` is free (taking it);
  /// otherwise `nil`, and `waiter` is resumed with its sequence when its
  /// turn comes.
  mutating func take(_ target: String, orWait waiter: Waiter) -> UInt64? {
    if turns[target] != nil {
      turns[target]!.append(waiter)
      return nil
    }
    turns[target] = []
    last += 1
    return last
  }

  /// Ends the turn of `target`. Its sequence is used up whether the insert
  /// was committed or not (a row that failed is a gap, which the owner does
  /// not wait for). Returns the next waiter and the sequence to resume it
  /// with: the turn goes to it directly. A target without waiters is
  /// forgotten.
  mutating func finish(_ target: String) -> (Waiter, UInt64)? {
    guard var waiting = turns[target] else { return nil }
    guard !waiting.isEmpty else {
      turns[target] = nil
      return nil
    }
    let next = waiting.removeFirst()
    turns[target] = waiting
    last += 1
    return (next, last)
  }

  /// How many targets have a send under way or waiting.
  var busyTargets: Int { turns.count }
}
