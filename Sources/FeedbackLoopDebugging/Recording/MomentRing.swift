import FeedbackLoop

/// The recorder's moments: the last `capacity` closed ones and the open one,
/// in one array that stops growing once full and is then overwritten in
/// place, oldest slot first.
///
/// A moment opens by overwriting the fields of the slot it reuses (its
/// effects' and discards' buffers kept for the next moment), so a full ring
/// allocates nothing, moves nothing and copies no `Moment` per event: W1mem
/// paid for a `Deque` append, a `removeFirst` and the evicted moment's
/// destruction through generic value witnesses on every event.
@usableFromInline
struct MomentRing<State: Sendable, Event: Sendable>: Sendable {
  /// `capacity + 1` slots, oldest at `head` once full.
  @usableFromInline var slots: [Moment<State, Event>] = []
  @usableFromInline let slotCount: Int
  /// The oldest slot once the ring is full (0 until then).
  @usableFromInline var head = 0

  @usableFromInline init(capacity: Int) {
    slotCount = capacity + 1
    slots.reserveCapacity(slotCount)
  }

  @inlinable var isEmpty: Bool { slots.isEmpty }

  /// Whether every slot holds a moment (the next one overwrites the oldest).
  @inlinable var isFull: Bool { slots.count == slotCount }

  /// Where the newest moment is; the ring is not empty.
  @inlinable var newestIndex: Int {
    slots.count < slotCount ? slots.count - 1 : (head == 0 ? slotCount - 1 : head - 1)
  }

  /// Opens a moment in the next slot; returns whether it overwrote the oldest.
  @inlinable mutating func open(
    sequence: UInt64, time: Duration?, event: Event?, source: MomentSource?, state: State
  ) -> Bool {
    if slots.count < slotCount {
      slots.append(Moment(sequence: sequence, time: time, event: event, source: source, state: state))
      return false
    }
    slots[head].reuse(sequence: sequence, time: time, event: event, source: source, state: state)
    head = head + 1 == slotCount ? 0 : head + 1
    return true
  }

  /// The newest moment; the ring is not empty.
  @inlinable var newest: Moment<State, Event> { slots[newestIndex] }

  /// Changes the newest moment in place; the ring is not empty.
  @inlinable mutating func withNewest<Result>(_ body: (inout Moment<State, Event>) -> Result) -> Result {
    body(&slots[newestIndex])
  }

  /// The moments, oldest first, copied out (so that the loop's next write
  /// does not copy the whole ring, which a shared buffer would make it do).
  func ordered(keepingLast limit: Int) -> [Moment<State, Event>] {
    var result: [Moment<State, Event>] = []
    result.reserveCapacity(min(slots.count, limit))
    let skipped = max(0, slots.count - limit)
    // The oldest first: from `head` to the end, then from the start to `head`.
    let older = slots[head...].dropFirst(skipped)
    result.append(contentsOf: older)
    result.append(contentsOf: slots[..<head].dropFirst(max(0, skipped - (slots.count - head))))
    return result
  }
}

extension Moment {
  /// Turns a slot of the ring into a new open moment, keeping its arrays'
  /// storage for the effects and discards to come.
  @inlinable mutating func reuse(
    sequence: UInt64, time: Duration?, event: Event?, source: MomentSource?, state: State
  ) {
    self.sequence = sequence
    self.time = time
    self.event = event
    self.source = source
    self.state = state
    if !effects.isEmpty { effects.removeAll(keepingCapacity: true) }
    if !discarded.isEmpty { discarded.removeAll(keepingCapacity: true) }
    stopped = false
  }
}
