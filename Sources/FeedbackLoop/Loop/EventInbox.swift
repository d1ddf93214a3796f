/// The shared queue of work between the senders and the loop's owner, and
/// the event buffer's policy (G14): which event a full buffer drops.
///
/// A value with no lock and no atomic operation of its own, so that the
/// policy is tested item by item without threads (EventInboxTests). Its
/// buffer is a ``LocalQueue`` in raw memory, freed with ``deallocate()``,
/// so that the owner can swap it whole with its own (``moveAll(into:)``).
/// ``SystemCore`` keeps one, guarded by its lock: any thread appends under
/// it, the owner takes from it under it, and the core sets the control
/// word's `queued` bit exactly while ``isEmpty`` is false.
///
/// Only events count against a limit. An effect's final event that is
/// dropped still ends its effect: it leaves an `effectEnded` in its place,
/// so that the effect's runtime hears of the end either way.
@usableFromInline
struct EventInbox<State: Sendable, Event: Sendable> {
  @usableFromInline var items = LocalQueue<InboxItem<State, Event>>()
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
        if let token = item.endedEffect { items.append(.effectEnded(token, .finished)) }
        return item.event
      }
    case .dropOldest(let limit):
      if limit == 0 {
        // Keeps none: the event just sent is the one dropped.
        if let token = item.endedEffect { items.append(.effectEnded(token, .finished)) }
        return item.event
      }
      if queuedEvents >= limit, let oldest = items.firstPosition(where: \.isEvent) {
        let removed = items[oldest]
        if let token = removed.endedEffect {
          items[oldest] = .effectEnded(token, .finished)
        } else {
          _ = items.remove(at: oldest)
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
  mutating func takeAll() -> [InboxItem<State, Event>] {
    queuedEvents = 0
    return items.takeAll()
  }

  /// Hands every item, in order, to `queue`, which must be empty, by
  /// swapping the two buffers: no item is copied and nothing is allocated.
  /// The inbox keeps `queue`'s empty buffer for the next sends.
  @inlinable
  mutating func moveAll(into queue: inout LocalQueue<InboxItem<State, Event>>) {
    precondition(queue.isEmpty, "EventInbox: moving items into a queue that holds some")
    swap(&items, &queue)
    queuedEvents = 0
  }

  /// Drops what is left and frees the buffer.
  @inlinable
  mutating func deallocate() {
    items.deallocate()
    queuedEvents = 0
  }
}
