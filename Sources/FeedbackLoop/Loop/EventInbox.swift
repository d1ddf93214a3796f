import DequeModule

/// The shared queue of work between the senders and the loop's owner, and
/// the event buffer's policy (G14): which event a full buffer drops.
///
/// A value with no lock and no atomic operation of its own, so that the
/// policy is tested item by item without threads (EventInboxTests).
/// ``SystemCore`` keeps one, guarded by its lock: any thread appends under
/// it, the owner takes from it under it, and the core sets the control
/// word's `queued` bit exactly while ``isEmpty`` is false.
///
/// Only events count against a limit. An effect's final event that is
/// dropped still ends its effect: it leaves an `effectEnded` in its place,
/// so that the effect's runtime hears of the end either way.
@usableFromInline
struct EventInbox<State: Sendable, Event: Sendable> {
  @usableFromInline var items = Deque<InboxItem<State, Event>>()
  /// How many of `items` are events: what a limit counts.
  @usableFromInline var queuedEvents = 0
  @usableFromInline let policy: EventBufferPolicy

  @inlinable
  init(policy: EventBufferPolicy) {
    self.policy = policy
  }

  @inlinable
  var isEmpty: Bool { items.isEmpty }

  /// Appends `item` under the policy; returns the event dropped to keep the
  /// limit, if any (the new one for `dropNewest`, the oldest for
  /// `dropOldest`), which the caller reports `bufferFull`.
  @inlinable
  mutating func append(_ item: InboxItem<State, Event>) -> Event? {
    guard item.isEvent else {
      items.append(item)
      return nil
    }
    switch policy {
    case .unbounded:
      break
    case .dropNewest(let limit):
      if queuedEvents >= limit {
        if case .finalEvent(_, let token) = item { items.append(.effectEnded(token, .finished)) }
        return item.event
      }
    case .dropOldest(let limit):
      if limit == 0 {
        // Keeps none: the event just sent is the one dropped.
        if case .finalEvent(_, let token) = item { items.append(.effectEnded(token, .finished)) }
        return item.event
      }
      if queuedEvents >= limit, let oldest = items.firstIndex(where: \.isEvent) {
        let removed = items[oldest]
        if case .finalEvent(_, let token) = removed {
          items[oldest] = .effectEnded(token, .finished)
        } else {
          items.remove(at: oldest)
        }
        items.append(item)
        return removed.event
      }
    }
    queuedEvents += 1
    items.append(item)
    return nil
  }

  /// Takes the first item.
  @inlinable
  mutating func popFirst() -> InboxItem<State, Event>? {
    let item = items.popFirst()
    if let item, item.isEvent { queuedEvents -= 1 }
    return item
  }

  /// Takes every item (a stopping loop reports the events discarded).
  @inlinable
  mutating func takeAll() -> Deque<InboxItem<State, Event>> {
    let all = items
    items.removeAll()
    queuedEvents = 0
    return all
  }
}
