import FeedbackLoop

/// The recorder's moments: the last `capacity` closed ones and the open one,
/// kept in a ring that stops growing once full and is then overwritten in
/// place, oldest slot first; a ``Moment`` is built only when one is read.
///
/// Each slot is a small ``Entry`` (the state, the event and a few flags:
/// 16 bytes for the one-input benchmark's `Int` and two-case event); what most moments lack
/// (a source other than outside, effects, discards, a time) sits in arrays
/// beside it, written only when a moment has it. A full ring then allocates
/// nothing, copies no `Moment`, and touches one small entry per event:
/// the in-memory recording benchmark paid for a `Deque` append and `removeFirst` of a 120-byte `Moment`
/// per event, and then, written in place, for 120 KB of ring cycled through
/// the cache, which the other builds on a loaded machine kept evicting.
@usableFromInline
struct MomentRing<State: Sendable, Event: Sendable>: Sendable {
  @usableFromInline struct Entry: Sendable {
    @usableFromInline var state: State
    @usableFromInline var event: Event?
    @usableFromInline var flags: Flags

    @inlinable init(state: State, event: Event?, flags: Flags) {
      self.state = state
      self.event = event
      self.flags = flags
    }
  }

  /// What a slot holds beside its entry.
  @usableFromInline struct Flags: OptionSet, Sendable {
    @usableFromInline let rawValue: UInt8
    @inlinable init(rawValue: UInt8) { self.rawValue = rawValue }
    /// `sources` holds the source (not outside; the start has none).
    @usableFromInline static var detailedSource: Flags { Flags(rawValue: 1) }
    @usableFromInline static var effects: Flags { Flags(rawValue: 2) }
    @usableFromInline static var discarded: Flags { Flags(rawValue: 4) }
    @usableFromInline static var time: Flags { Flags(rawValue: 8) }
    @usableFromInline static var stopped: Flags { Flags(rawValue: 16) }
  }

  /// `capacity + 1` slots, oldest at `head` once full.
  @usableFromInline var entries: [Entry] = []
  @usableFromInline var sources: [MomentSource?] = []
  @usableFromInline var effects: [[EffectChange]] = []
  @usableFromInline var discarded: [[DiscardedEvent<Event>]] = []
  @usableFromInline var times: [Duration] = []
  @usableFromInline let slotCount: Int
  /// The oldest slot once the ring is full (0 until then).
  @usableFromInline var head = 0
  /// The newest moment's number; the others precede it without gaps.
  @usableFromInline var newestSequence: UInt64 = 0
  /// A moment the ring overwrote, with the events refused while it was current.
  @usableFromInline typealias Released = (Entry?, [DiscardedEvent<Event>])

  /// What the last ``open(sequence:time:event:detailedSource:state:)``
  /// overwrote, until ``takeReleased()`` hands it over.
  @usableFromInline var releasedEntry: Entry?
  @usableFromInline var releasedDiscarded: [DiscardedEvent<Event>] = []

  @usableFromInline init(capacity: Int) {
    slotCount = capacity + 1
    entries.reserveCapacity(slotCount)
  }

  @inlinable var isEmpty: Bool { entries.isEmpty }

  /// Whether every slot holds a moment (the next one overwrites the oldest).
  @inlinable var isFull: Bool { entries.count == slotCount }

  /// Where the newest moment is; the ring is not empty.
  @inlinable var newestIndex: Int {
    entries.count < slotCount ? entries.count - 1 : (head == 0 ? slotCount - 1 : head - 1)
  }

  /// Opens a moment in the next slot; returns whether it overwrote the oldest.
  ///
  /// `detailedSource` is the event's source unless it came from outside
  /// (or the moment is the start): `nil` then.
  @inlinable mutating func open(
    sequence: UInt64, time: Duration?, event: Event?, detailedSource source: MomentSource?, state: State
  ) -> Bool {
    newestSequence = sequence
    var flags: Flags = []
    if source != nil { flags.insert(.detailedSource) }
    if time != nil { flags.insert(.time) }
    let entry = Entry(state: state, event: event, flags: flags)
    if entries.count < slotCount {
      entries.append(entry)
      sources.append(flags.contains(.detailedSource) ? source : nil)
      effects.append([])
      discarded.append([])
      times.append(time ?? .zero)
      return false
    }
    let slot = head
    let old = entries[slot].flags
    if !_isPOD(Entry.self) { releasedEntry = entries[slot] }
    entries[slot] = entry
    // The arrays beside are written only when the old or the new moment uses them.
    if flags.contains(.detailedSource) { sources[slot] = source }
    if old.contains(.effects) { effects[slot].removeAll(keepingCapacity: true) }
    if old.contains(.discarded) { swap(&releasedDiscarded, &discarded[slot]) }
    if let time { times[slot] = time }
    head = head + 1 == slotCount ? 0 : head + 1
    return true
  }

  /// What the ring overwrote since the last call, for the caller to release
  /// once it is out of the recorder's section: a `State` or an `Event`
  /// released there could run the app's `deinit`, which may read the
  /// recorder (and would wait, inside the section, for this thread).
  @inlinable mutating func takeReleased() -> Released {
    if _isPOD(Entry.self) && releasedDiscarded.isEmpty { return (nil, []) }
    var entry: Entry? = nil
    var discarded: [DiscardedEvent<Event>] = []
    swap(&entry, &releasedEntry)
    swap(&discarded, &releasedDiscarded)
    return (entry, discarded)
  }

  /// Adds an effect's change to the newest moment; the ring is not empty.
  @inlinable mutating func appendEffect(_ change: EffectChange) {
    let slot = newestIndex
    entries[slot].flags.insert(.effects)
    effects[slot].append(change)
  }

  /// Adds a refused or dropped event to the newest moment; the ring is not empty.
  @inlinable mutating func appendDiscarded(_ event: DiscardedEvent<Event>) {
    let slot = newestIndex
    entries[slot].flags.insert(.discarded)
    discarded[slot].append(event)
  }

  /// Marks the newest moment as the one whose system stopped; the ring is not empty.
  @inlinable mutating func markNewestStopped() {
    entries[newestIndex].flags.insert(.stopped)
  }

  /// The newest moment; the ring is not empty.
  @inlinable var newest: Moment<State, Event> { moment(at: newestIndex, sequence: newestSequence) }

  /// The moment in `slot`, built from its entry and what sits beside it.
  @inlinable func moment(at slot: Int, sequence: UInt64) -> Moment<State, Event> {
    let entry = entries[slot]
    let flags = entry.flags
    let source: MomentSource? =
      flags.contains(.detailedSource) ? sources[slot] : (entry.event == nil ? nil : .external)
    return Moment(
      sequence: sequence, time: flags.contains(.time) ? times[slot] : nil, event: entry.event, source: source,
      state: entry.state, effects: flags.contains(.effects) ? effects[slot] : [],
      discarded: flags.contains(.discarded) ? discarded[slot] : [], stopped: flags.contains(.stopped))
  }

  /// The last `limit` moments, oldest first.
  func ordered(keepingLast limit: Int) -> [Moment<State, Event>] {
    let count = min(entries.count, limit)
    var result: [Moment<State, Event>] = []
    result.reserveCapacity(count)
    // The oldest slot is `head` in a full ring, 0 before; skip those beyond `limit`.
    let oldest = isFull ? head : 0
    let firstSequence = newestSequence &- UInt64(count) &+ 1
    for offset in 0..<count {
      let slot = (oldest + entries.count - count + offset) % entries.count
      result.append(moment(at: slot, sequence: firstSequence + UInt64(offset)))
    }
    return result
  }
}
