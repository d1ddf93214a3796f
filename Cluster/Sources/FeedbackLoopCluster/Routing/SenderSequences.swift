/// A node's numbering of its events per target id, and the turn of each
/// target: one insert at a time per target, so that the inbox row of event
/// *n* + 1 is inserted after the row of *n* is committed. Any view of the
/// inbox that sees *n* + 1 then sees *n*, which is what lets an owner keep a
/// sender's order and recognize a redelivery by its sequence alone.
///
/// A turn ends by handing the next sequence to the first waiter, so the
/// sends to one target go in the order they asked. One entry per target the
/// node has sent to (a sequence must never be reused by this sender); a
/// node's run is a new sender, so it starts empty.
struct SenderSequences {
  typealias Waiter = CheckedContinuation<UInt64, Never>

  private struct Turn {
    var next: UInt64 = 1
    var isBusy = false
    var waiting: [Waiter] = []
  }

  private var turns: [String: Turn] = [:]

  /// The next sequence of `target` when its turn is free (taking it);
  /// otherwise `nil`, and `waiter` is resumed with its sequence when its
  /// turn comes.
  mutating func take(_ target: String, orWait waiter: Waiter) -> UInt64? {
    var turn = turns[target, default: Turn()]
    defer { turns[target] = turn }
    guard !turn.isBusy else {
      turn.waiting.append(waiter)
      return nil
    }
    turn.isBusy = true
    return turn.next
  }

  /// Ends the turn of `target`. Its sequence is used up whether the insert
  /// was committed or not (a row that failed is a gap, which the owner does
  /// not wait for). Returns the next waiter and the sequence to resume it
  /// with: the turn goes to it directly.
  mutating func finish(_ target: String) -> (Waiter, UInt64)? {
    guard var turn = turns[target] else { return nil }
    defer { turns[target] = turn }
    turn.next += 1
    guard !turn.waiting.isEmpty else {
      turn.isBusy = false
      return nil
    }
    return (turn.waiting.removeFirst(), turn.next)
  }
}
