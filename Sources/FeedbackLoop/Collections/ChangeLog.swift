import CFeedbackLoopShims

/// The recent changes of a tracked collection (``TrackedSet``,
/// ``TrackedArray``), kept with
/// its storage, so that a reader that saw an earlier version reads only what
/// changed since, instead of comparing the whole collection.
///
/// Each storage has an identity of its own, never reused in the process; a
/// reader remembers the identity and generation it last saw (a
/// ``ChangeCursor``) and keeps no copy of the collection, which would make
/// the owner's next change copy it all (copy on write). The log holds the
/// keys changed by the last changes, at most `limit(forCount:)` of them: a
/// reader that fell further behind, or that saw another storage (a copy, a
/// collection replaced wholesale), is told the changes are unknown and
/// compares the whole collection once. The limit grows with the collection,
/// so that this comparison, O(n), comes at most once per n / 4 changes: a
/// change costs O(1) amortized, to the owner and to every reader.
@usableFromInline
struct ChangeLog<Key> {
  @usableFromInline let identity: UInt64
  /// How many changes this storage has seen.
  @usableFromInline var generation: UInt64 = 0
  /// The keys of the last `touched.count` changes, oldest first; a key
  /// changed twice appears twice.
  @usableFromInline var touched: [Key] = []

  @inlinable
  init() { identity = ChangeLog.nextIdentity() }

  /// A process-wide identity for a new storage, from an atomic counter: a
  /// storage freed and another made at the same address are still told apart.
  @usableFromInline
  static func nextIdentity() -> UInt64 { fl_next_storage_identity() }

  @inlinable
  static func limit(forCount count: Int) -> Int { Swift.max(32, count / 4) }

  /// Logs a change of `key` in a collection that now holds `count` elements.
  @inlinable
  mutating func record(_ key: Key, count: Int) {
    let limit = Self.limit(forCount: count)
    if touched.count >= limit {
      // Dropping the older half at once keeps the shifting O(1) per change.
      touched.removeFirst(touched.count - limit / 2)
    }
    touched.append(key)
    generation &+= 1
  }

  /// Forgets every change, under a new identity: for a change that the log
  /// cannot describe key by key (an array's elements shifted by an insertion
  /// or a removal). Readers then compare the whole collection once.
  @inlinable
  mutating func restart() { self = ChangeLog() }

  @inlinable
  var cursor: ChangeCursor { ChangeCursor(identity: identity, generation: generation) }

  /// What changed since `cursor`: `.unchanged`, the keys changed (with
  /// repeats, oldest first), or `.unknown` if the log cannot tell.
  @inlinable
  func changes(since cursor: ChangeCursor) -> ChangeLogReading<Key> {
    guard cursor.identity == identity, cursor.generation <= generation else { return .unknown }
    let behind = generation &- cursor.generation
    if behind == 0 { return .unchanged }
    guard behind <= UInt64(touched.count) else { return .unknown }
    return .changed(touched[(touched.count - Int(behind))...])
  }
}

/// Where a reader of a tracked collection stopped: the storage it saw and
/// how many changes that storage had then. The initial cursor matches no
/// storage.
@usableFromInline
struct ChangeCursor: Sendable {
  @usableFromInline var identity: UInt64
  @usableFromInline var generation: UInt64

  @inlinable
  init(identity: UInt64 = 0, generation: UInt64 = 0) {
    self.identity = identity
    self.generation = generation
  }
}

/// What a reader learns from a ``ChangeLog``.
@usableFromInline
enum ChangeLogReading<Key> {
  case unchanged
  case changed(ArraySlice<Key>)
  case unknown
}
