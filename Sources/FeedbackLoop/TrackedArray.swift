/// An array that remembers which of its positions changed last, so that
/// feedbacks watching its elements one each
/// (``Feedback/init(lensing:at:strategy:name:fileID:line:effects:)``) cost
/// only for the elements that changed, however many feedbacks watch the
/// others.
///
/// A query feedback compares its query after every state: with a hundred
/// feedbacks each watching one element of an array, every event pays a
/// hundred queries, even if it changed one element. Keep the elements in a
/// `TrackedArray`, watch them by position, and the system reads from the
/// array's log which positions changed and asks only their feedbacks.
///
/// ```swift
/// struct State: Sendable, Equatable {
///   var downloads: TrackedArray<Download> = []
/// }
///
/// // One feedback per slot; an event that changes slot 3 asks slot 3's alone.
/// let feedbacks = (0..<slotCount).map { slot in
///   Feedback<State, Event>(lensing: \.downloads, at: slot) { download in
///     .task { try await .progress(slot, client.fetch(download)) } catch: { .failed(slot, $0) }
///   }
/// }
/// ```
///
/// It is a `MutableCollection` and a `RandomAccessCollection` indexed from 0,
/// with `Array`'s semantics and costs; `==` compares elements. Setting an
/// element (`array[i] = x`, `array[i] += 1`, `swapAt`), `append` and
/// `removeLast` log the positions they change; `insert(_:at:)` and
/// `remove(at:)`, which shift the elements after them, and `removeAll()`
/// restart the log, and the watching feedbacks then compare every element
/// once. As with ``TrackedSet``, a change made while another copy of the array
/// is alive (kept by an observer, a view, a ``SystemMonitor``) copies it and
/// restarts the log.
public struct TrackedArray<Element: Sendable>: Sendable {
  @usableFromInline var storage: Storage

  @usableFromInline
  final class Storage: @unchecked Sendable {
    // Sendable by the copy-on-write discipline of the standard library's
    // collections: a storage is changed only through a `TrackedArray` that
    // holds the only reference to it (`makeUnique()`), so no other value,
    // and so no other thread, can see it while it changes; shared storages
    // are only read.
    @exclusivity(unchecked) @usableFromInline var elements: [Element]
    @exclusivity(unchecked) @usableFromInline var log = ChangeLog<Int>()

    @inlinable
    init(_ elements: [Element]) { self.elements = elements }
  }

  /// An empty array.
  @inlinable
  public init() { storage = Storage([]) }

  /// An array of the elements of `elements`, in order.
  @inlinable
  public init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
    storage = Storage(Array(elements))
  }

  /// An array of `count` copies of `element`.
  @inlinable
  public init(repeating element: Element, count: Int) { storage = Storage(Array(repeating: element, count: count)) }

  /// The elements, as an `Array` (shares the storage until either changes).
  @inlinable
  public var elements: [Element] { storage.elements }

  @inlinable
  mutating func makeUnique() {
    if !isKnownUniquelyReferenced(&storage) { storage = Storage(storage.elements) }
  }

  @inlinable
  var changeCursor: ChangeCursor { storage.log.cursor }

  @inlinable
  func changes(since cursor: ChangeCursor) -> ChangeLogReading<Int> { storage.log.changes(since: cursor) }

  /// The element at `index`, or `nil` past the end.
  @inlinable
  func element(at index: Int) -> Element? {
    let elements = storage.elements
    return index < elements.count ? elements[index] : nil
  }
}

extension TrackedArray: RandomAccessCollection, MutableCollection {
  public typealias Index = Int

  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { storage.elements.count }
  @inlinable public var count: Int { storage.elements.count }

  @inlinable
  public subscript(position: Int) -> Element {
    get { storage.elements[position] }
    set {
      makeUnique()
      storage.elements[position] = newValue
      storage.log.record(position, count: storage.elements.count)
    }
  }
}

extension TrackedArray {
  /// Appends `element`: a change at its new position.
  @inlinable
  public mutating func append(_ element: Element) {
    makeUnique()
    storage.elements.append(element)
    storage.log.record(storage.elements.count - 1, count: storage.elements.count)
  }

  /// Removes and returns the last element: a change at its old position.
  @inlinable
  @discardableResult
  public mutating func removeLast() -> Element {
    makeUnique()
    let element = storage.elements.removeLast()
    storage.log.record(storage.elements.count, count: storage.elements.count)
    return element
  }

  /// Inserts `element` at `index`, shifting the elements after it: the log
  /// restarts.
  @inlinable
  public mutating func insert(_ element: Element, at index: Int) {
    makeUnique()
    storage.elements.insert(element, at: index)
    storage.log.restart()
  }

  /// Removes the element at `index`, shifting the elements after it: the
  /// log restarts.
  @inlinable
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    makeUnique()
    let element = storage.elements.remove(at: index)
    storage.log.restart()
    return element
  }

  /// Removes every element: the array starts a new storage.
  @inlinable
  public mutating func removeAll() { storage = Storage([]) }
}

extension TrackedArray: ExpressibleByArrayLiteral {
  @inlinable
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension TrackedArray: Equatable where Element: Equatable {
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.elements == rhs.storage.elements
  }
}

extension TrackedArray: Hashable where Element: Hashable {
  @inlinable
  public func hash(into hasher: inout Hasher) { hasher.combine(storage.elements) }
}

extension TrackedArray: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { storage.elements.description }
  public var debugDescription: String { "TrackedArray(\(storage.elements.description))" }
}

extension TrackedArray: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(storage.elements)
  }
}

extension TrackedArray: Decodable where Element: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode([Element].self))
  }
}
