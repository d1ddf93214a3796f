/// One entry of a system's queue of work, drained in order by the thread that
/// runs the loop.
///
/// Events are not the only work: the end of an effect, a value derived by a
/// feedback and the arrival of an observer must be handled by the loop too,
/// in order with the events, because they change what the loop owns.
@usableFromInline
enum InboxItem<State: Sendable, Event: Sendable>: Sendable {
  case start
  case event(Event, EffectToken)
  /// An effect's last event, which ends it (`Effect.task`, `Effect.after`).
  case finalEvent(Event, EffectToken)
  case effectEnded(EffectToken, EffectOutcome)
  /// Boxed, like `Effect.Operation.run`, so that an item stays small.
  case control(ControlValue)
  case addObserver(StateObserver<State>)
  case removeObserver(UInt64)
  /// An event with the context current where it was sent, for a monitor
  /// that asked for it (``SystemMonitor/captureSendContext``). Boxed, so
  /// that an item stays small: only a traced send pays for the box.
  case eventInContext(EventInContext<Event>)

  @inlinable
  var isEvent: Bool {
    switch self {
    case .event, .finalEvent, .eventInContext: true
    default: false
    }
  }

  @inlinable
  var event: Event? {
    switch self {
    case .event(let event, _), .finalEvent(let event, _): event
    case .eventInContext(let sent): sent.event
    default: nil
    }
  }

  /// The effect this item's event ends, if it is an effect's last event: a
  /// dropped last event still ends its effect (``EventInbox``).
  @inlinable
  var endedEffect: EffectToken? {
    switch self {
    case .finalEvent(_, let token): token
    case .eventInContext(let sent): sent.endsEffect ? sent.token : nil
    default: nil
    }
  }
}

/// An event, its token, and the context that was current where it was
/// sent (a tracing monitor's service context), kept with it until the loop
/// reduces it, so that the effects its state starts continue the sender's
/// trace.
@usableFromInline
final class EventInContext<Event: Sendable>: Sendable {
  @usableFromInline let event: Event
  @usableFromInline let token: EffectToken
  @usableFromInline let endsEffect: Bool
  @usableFromInline let context: any Sendable

  @usableFromInline
  init(_ event: Event, _ token: EffectToken, endsEffect: Bool, context: any Sendable) {
    self.event = event
    self.token = token
    self.endsEffect = endsEffect
    self.context = context
  }
}

/// Where an event comes from, inside the system: the tag of an event item,
/// which the drain reads to discard an event of a cancelled effect.
///
/// A negative `feedback` marks events sent from outside: `-1` for
/// ``System/send(_:isolation:)`` and an ``Input``, `-2` for
/// `System.sendCounted` (a durable system's sends, which its monitor counts
/// apart: ``ReductionOrigin``); `number == 0` marks a feedback's own task
/// (an input sequence, the general form). Neither is ever cancelled: only
/// effects, numbered from 1, are.
@usableFromInline
struct EffectToken: Sendable, Hashable {
  @usableFromInline var feedback: Int32
  @usableFromInline var number: UInt64

  @inlinable
  init(feedback: Int32, number: UInt64) {
    self.feedback = feedback
    self.number = number
  }

  @inlinable static var external: EffectToken { EffectToken(feedback: -1, number: 0) }
  /// An event sent through `System.sendCounted`: external, and reported
  /// apart from the other external events (``ReductionOrigin/isCountedSend``).
  @inlinable static var countedExternal: EffectToken { EffectToken(feedback: -2, number: 0) }

  static func feedbackTask(_ feedback: FeedbackID) -> EffectToken {
    EffectToken(feedback: Int32(feedback.index), number: 0)
  }

  @inlinable var isExternal: Bool { feedback < 0 }
  @inlinable var isEffect: Bool { number > 0 }
}

/// A value a feedback's own task produced for the loop.
@usableFromInline
final class ControlValue: Sendable {
  @usableFromInline let feedback: Int32
  @usableFromInline let value: any Sendable

  @usableFromInline
  init(feedback: Int32, value: any Sendable) {
    self.feedback = feedback
    self.value = value
  }
}

/// How an effect's task ended.
@usableFromInline
enum EffectOutcome: Sendable {
  case finished
  case cancelled
  case failed(any Error)
}

/// A first-in, first-out ring buffer in raw memory, for the work the owning
/// thread queues for itself (a feedback answering a state at once), and
/// for the shared inbox (``EventInbox``), whose whole buffer the owner
/// swaps with its own empty one in one acquisition of the lock: the two
/// buffers change hands and are reused, so that a queued event allocates
/// nothing once they have grown (the many-senders benchmark).
///
/// A `Deque` would do, but each append and each take of one retained and
/// released its storage and checked it for uniqueness, which cost a third of
/// a round trip through a feedback (BENCHMARKS.md). This queue is only ever
/// touched by one thread at a time (the owner of the loop), never copied,
/// and freed by its owner with ``deallocate()``: it needs none of that.
@usableFromInline
struct LocalQueue<Element> {
  @usableFromInline var storage: UnsafeMutablePointer<Element>?
  @usableFromInline var capacity = 0
  @usableFromInline var head = 0
  @usableFromInline var count = 0

  @inlinable
  init() {}

  @inlinable
  var isEmpty: Bool { count == 0 }

  // `storage` is non-nil whenever `capacity` is above 0, and `grow()` runs
  // before a write to a full queue, so `unsafelyUnwrapped` below reads an
  // allocated buffer: after `grow()` in `append` and `prepend`, and behind
  // `count > 0` in `popFirst` and in `slot(_:)`, whose precondition asks for
  // a position below `count`. The indices stay in 0..<capacity (the ring
  // wraps), which debug builds check.

  @inlinable @inline(__always)
  mutating func append(_ element: consuming Element) {
    if count == capacity { grow() }
    var index = head + count
    if index >= capacity { index -= capacity }
    assert(index >= 0 && index < capacity, "LocalQueue: slot \(index) out of 0..<\(capacity)")
    (storage.unsafelyUnwrapped + index).initialize(to: element)
    count += 1
  }

  @inlinable @inline(__always)
  mutating func popFirst() -> Element? {
    guard count > 0 else { return nil }
    assert(head >= 0 && head < capacity, "LocalQueue: head \(head) out of 0..<\(capacity)")
    let element = (storage.unsafelyUnwrapped + head).move()
    head += 1
    if head == capacity { head = 0 }
    count -= 1
    return element
  }

  /// Puts `element` back at the front (an event met a stopping system at
  /// the reduction guard: see `SystemCore.putBack`).
  @usableFromInline
  mutating func prepend(_ element: consuming Element) {
    if count == capacity { grow() }
    head = head == 0 ? capacity - 1 : head - 1
    assert(head >= 0 && head < capacity, "LocalQueue: head \(head) out of 0..<\(capacity)")
    (storage.unsafelyUnwrapped + head).initialize(to: element)
    count += 1
  }

  /// The element at `position` from the front.
  @usableFromInline
  subscript(position: Int) -> Element {
    get { storage.unsafelyUnwrapped[slot(position)] }
    set { storage.unsafelyUnwrapped[slot(position)] = newValue }
  }

  @inlinable
  func slot(_ position: Int) -> Int {
    precondition(position >= 0 && position < count, "LocalQueue: position \(position) out of 0..<\(count)")
    let index = head + position
    return index >= capacity ? index - capacity : index
  }

  /// The position from the front of the first element that matches.
  @usableFromInline
  func firstPosition(where matches: (Element) -> Bool) -> Int? {
    for position in 0..<count where matches(self[position]) { return position }
    return nil
  }

  /// Removes and returns the element at `position`, closing the gap from
  /// the nearer end, as `Deque` does: a full inbox that drops its oldest
  /// event, which is at or near the front, moves nothing or little.
  @usableFromInline
  mutating func remove(at position: Int) -> Element {
    let storage = storage.unsafelyUnwrapped
    let removed = (storage + slot(position)).move()
    if position < count - 1 - position {
      // The elements in front of it move one place back; the front follows.
      var gap = position
      while gap > 0 {
        (storage + slot(gap)).initialize(to: (storage + slot(gap - 1)).move())
        gap -= 1
      }
      head += 1
      if head == capacity { head = 0 }
    } else {
      for later in position..<(count - 1) {
        (storage + slot(later)).initialize(to: (storage + slot(later + 1)).move())
      }
    }
    count -= 1
    return removed
  }

  /// A copy of the elements, in order (tests).
  @usableFromInline
  var elements: [Element] { (0..<count).map { self[$0] } }

  /// Takes every element out, in order.
  @usableFromInline
  mutating func takeAll() -> [Element] {
    var all: [Element] = []
    all.reserveCapacity(count)
    while let element = popFirst() { all.append(element) }
    return all
  }

  /// Doubles the capacity (the first append allocates: an idle system holds
  /// no buffer).
  @usableFromInline
  mutating func grow() {
    let newCapacity = max(4, capacity * 2)
    let newStorage = UnsafeMutablePointer<Element>.allocate(capacity: newCapacity)
    if let storage {
      let firstPart = min(count, capacity - head)
      newStorage.moveInitialize(from: storage + head, count: firstPart)
      (newStorage + firstPart).moveInitialize(from: storage, count: count - firstPart)
      storage.deallocate()
    }
    storage = newStorage
    capacity = newCapacity
    head = 0
  }

  /// Drops what is left and frees the buffer.
  @usableFromInline
  mutating func deallocate() {
    while popFirst() != nil {}
    storage?.deallocate()
    storage = nil
    capacity = 0
  }
}
