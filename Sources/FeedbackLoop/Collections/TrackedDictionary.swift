/// A dictionary that remembers its last changes, so that a keyed feedback by
/// id over it
/// (``Feedback/requests(_:name:fileID:line:effects:)-((State)->TrackedDictionary<ID,Value>,_,_,_,_)``)
/// costs O(1) per changed id, however many ids it holds, and a changed value
/// too.
///
/// A `TrackedDictionary` is a `Dictionary` with a short log of the keys
/// whose entries were added, changed or removed, kept in the same
/// copy-on-write storage, like ``TrackedSet``. The feedback over it keeps no
/// copy of the dictionary: it reads the keys changed since the last state,
/// and the reducer's changes stay in place.
///
/// ```swift
/// struct State: Sendable, Equatable {
///   var priorityByID: TrackedDictionary<Upload.ID, Int> = [:]
/// }
///
/// // One upload per id among thousands; a new priority reaches the running upload.
/// Feedback<State, Event>.requests(\.priorityByID) { id, priority, updates in
///   .run { send in
///     try await uploader.upload(id, priority: priority, priorityChanges: updates)
///     send(.uploaded(id))
///   }
/// }
/// ```
///
/// It is a `Collection` of key-value pairs with `Dictionary`'s semantics and
/// costs; `==` compares entries. Its subscript by key is the one way to
/// write an entry (`dictionary[id] = value`; `dictionary[id] = nil`
/// removes it), and a write logs the key, whether or not the value
/// changed (removing a missing key is no change); build one from a `Dictionary` (`TrackedDictionary(entries)`,
/// which shares its storage) or a literal. The log holds the last `max(32, count / 4)` changes.
/// A feedback compares the whole dictionary, once, when it cannot read the
/// log, for the reasons ``TrackedSet`` gives: at its first state, after
/// more changes in one event than the log keeps, after a change made while
/// another copy was alive (kept by an observer, a view, a
/// ``SystemMonitor``), and after an assignment (`dictionary = [:]`).
public struct TrackedDictionary<Key: Hashable & Sendable, Value: Sendable>: Sendable, TrackedCollection {
  @usableFromInline var storage: TrackedStorage<[Key: Value], Key>

  /// An empty dictionary.
  @inlinable
  public init() { storage = TrackedStorage([:]) }

  /// A dictionary of the entries of `dictionary`.
  @inlinable
  public init(_ dictionary: [Key: Value]) { storage = TrackedStorage(dictionary) }

  /// The entries, as a `Dictionary` (shares the storage until either changes).
  @inlinable
  public var dictionary: [Key: Value] { storage.contents }

  /// The value for `key`, or `nil`; setting `nil` removes the entry (and
  /// logs nothing if there was none).
  @inlinable
  public subscript(key: Key) -> Value? {
    get { storage.contents[key] }
    set {
      makeUnique()
      if let newValue {
        storage.contents[key] = newValue
      } else if storage.contents.removeValue(forKey: key) == nil {
        return
      }
      storage.log.record(key, count: storage.contents.count)
    }
  }

  /// Changes the value for `key` in place and logs the key, with one
  /// look-up of the key (a get then a set hash it twice and copy the
  /// value); `nil`, and nothing logged, if there is no value for `key`.
  /// The lifted reducers by id reach their child through it (the children-by-id benchmark in
  /// BENCHMARKS.md).
  ///
  /// The key is looked up before the storage is made unique: a missing key
  /// (an event for a child that is not there) copies nothing, however
  /// many other values share the storage. The index found stays valid
  /// through the copy, which keeps the dictionary's buckets where they were.
  @inlinable
  mutating func modifyValue<Result>(forKey key: Key, _ body: (inout Value) -> Result) -> Result? {
    guard let index = storage.contents.index(forKey: key) else { return nil }
    makeUnique()
    let (result, address) = Self.writing(&storage.contents.values[index], body)
    storage.log.record(key, count: storage.contents.count)
    // A value changed in place moves no entry: `index` stays valid until
    // the next change, which moves the generation on.
    storage.lastWrite = index
    storage.lastWriteAddress = address
    storage.lastWriteGeneration = storage.log.generation
    return result
  }

  /// Runs `body` on `value`, and returns the address it was written at:
  /// the dictionary's own slot for the value, which its `values` subscript
  /// lends for the write.
  @inlinable @inline(__always)
  static func writing<Result>(_ value: inout Value, _ body: (inout Value) -> Result) -> (Result, UInt) {
    let address = _withUnprotectedUnsafeMutablePointer(to: &value) { UInt(bitPattern: $0) }
    return (body(&value), address)
  }

  /// The keys, in the dictionary's order.
  @inlinable
  public var keys: Dictionary<Key, Value>.Keys { storage.contents.keys }

  /// The values, in the dictionary's order.
  @inlinable
  public var values: Dictionary<Key, Value>.Values { storage.contents.values }
}

extension TrackedDictionary: Collection {
  public typealias Index = Dictionary<Key, Value>.Index
  public typealias Element = (key: Key, value: Value)

  @inlinable public var startIndex: Index { storage.contents.startIndex }
  @inlinable public var endIndex: Index { storage.contents.endIndex }
  @inlinable public var count: Int { storage.contents.count }
  @inlinable public var isEmpty: Bool { storage.contents.isEmpty }
  @inlinable public func index(after index: Index) -> Index { storage.contents.index(after: index) }
  @inlinable public subscript(position: Index) -> Element { storage.contents[position] }
}

extension TrackedDictionary: ExpressibleByDictionaryLiteral {
  @inlinable
  public init(dictionaryLiteral elements: (Key, Value)...) {
    self.init(Dictionary(uniqueKeysWithValues: elements))
  }
}

extension TrackedDictionary: Equatable where Value: Equatable {
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.contents == rhs.storage.contents
  }
}

extension TrackedDictionary: Hashable where Value: Hashable {
  @inlinable
  public func hash(into hasher: inout Hasher) { hasher.combine(storage.contents) }
}

extension TrackedDictionary: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { storage.contents.description }
  public var debugDescription: String { "TrackedDictionary(\(storage.contents.description))" }
}

extension TrackedDictionary: Encodable where Key: Encodable, Value: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(storage.contents)
  }
}

extension TrackedDictionary: Decodable where Key: Decodable, Value: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode([Key: Value].self))
  }
}
