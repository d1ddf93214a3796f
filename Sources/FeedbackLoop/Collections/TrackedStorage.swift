/// The copy-on-write storage of a tracked collection (``TrackedSet``,
/// ``TrackedArray``, ``TrackedDictionary``): the collection itself and the
/// log of its changes, together, so that a copy of the collection is a copy
/// of its log's identity too.
@usableFromInline
final class TrackedStorage<Contents: Collection, Key>: @unchecked Sendable {
  // Sendable by the copy-on-write discipline of the standard library's
  // collections: a storage is changed only through a tracked collection that
  // holds the only reference to it (`TrackedCollection.makeUnique()`), so no
  // other value, and so no other thread, can see it while it changes;
  // shared storages are only read. The tracked collections require their
  // contents to be Sendable.
  @exclusivity(unchecked) @usableFromInline var contents: Contents
  @exclusivity(unchecked) @usableFromInline var log = ChangeLog<Key>()
  /// Where the last change wrote, while the log's generation is still
  /// `lastWriteGeneration`: any later change moves the generation on and so
  /// retires it. A reader that saw every change but this one reads the
  /// written element there without looking its key up again (the lifted
  /// feedback by id, the children-by-id benchmark in BENCHMARKS.md). Set only by writes that keep
  /// the positions of the others (`TrackedDictionary.modifyValue`).
  @exclusivity(unchecked) @usableFromInline var lastWrite: Contents.Index? = nil
  @exclusivity(unchecked) @usableFromInline var lastWriteGeneration: UInt64 = 0
  /// The address the last change wrote the element at, as a number: never
  /// dereferenced, only a key by which a reader finds what it keeps per
  /// element without hashing the element's key (`ByIDLeafRuntime`); 0 when
  /// unknown. Valid under the same condition as `lastWrite`.
  @exclusivity(unchecked) @usableFromInline var lastWriteAddress: UInt = 0

  @inlinable
  init(_ contents: Contents) { self.contents = contents }
}

extension TrackedStorage {
  /// Reads the contents in place, through their address: reading the
  /// property copies it for any call made with it, a retain and a release
  /// of the collection's buffer (the children-by-id benchmark in BENCHMARKS.md: a tenth of an event).
  /// The access is formally a modification, for the address alone: `body`
  /// must only read, and `contents` must stay a stored property (a computed
  /// one would be written back, into a storage other values share).
  @inlinable
  func withContentsInPlace<Result>(_ body: (UnsafePointer<Contents>) -> Result) -> Result {
    withUnsafeMutablePointer(to: &contents) { body(UnsafePointer($0)) }
  }
}

/// What the tracked collections share: their storage, made unique before a
/// change, and what a reader learns from its log.
@usableFromInline
protocol TrackedCollection {
  associatedtype Contents: Collection
  associatedtype LogKey
  var storage: TrackedStorage<Contents, LogKey> { get set }
}

extension TrackedCollection {
  /// Copies the storage, with a new log, if another value shares it.
  @inlinable
  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) { storage = TrackedStorage(storage.contents) }
  }

  @inlinable
  var changeCursor: ChangeCursor { storage.log.cursor }

  @inlinable
  func changes(since cursor: ChangeCursor) -> ChangeLogReading<LogKey> { storage.log.changes(since: cursor) }
}
