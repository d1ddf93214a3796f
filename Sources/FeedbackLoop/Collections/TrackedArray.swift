/// An array that remembers which of its positions changed last, so that
/// feedbacks watching its elements one each
/// (``Feedback/query(_:at:strategy:name:fileID:line:effects:)``) cost
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
///   Feedback<State, Event>.query(\.downloads, at: slot) { download in
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
public struct TrackedArray<Element: Sendable>: Sendable, TrackedCollection {
  @usableFromInline var storage: TrackedStorage<[Element], Int>

  /// An empty array.
  @inlinable
  public init() { storage = TrackedStorage([]) }

  /// An array of the elements of `elements`, in order.
  @inlinable
  public init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
    storage = TrackedStorage(Array(elements))
  }

  /// An array of `count` copies of `element`.
  @inlinable
  public init(repeating element: Element, count: Int) {
    storage = TrackedStorage(Array(repeating: element, count: count))
  }

  /// The elements, as an `Array` (shares the storage until either changes).
  @inlinable
  public var elements: [Element] { storage.contents }

  /// The element at `index`, or `nil` past the end.
  @inlinable
  func element(at index: Int) -> Element? {
    let elements = storage.contents
    return index < elements.count ? elements[index] : nil
  }
}

extension TrackedArray: RandomAccessCollection, MutableCollection {
  public typealias Index = Int

  @inlinable public var startIndex: Int { 0 }
  @inlinable public var endIndex: Int { storage.contents.count }
  @inlinable public var count: Int { storage.contents.count }

  @inlinable
  public subscript(position: Int) -> Element {
    get { storage.contents[position] }
    set {
      makeUnique()
      storage.contents[position] = newValue
      storage.log.record(position, count: storage.contents.count)
    }
  }
}

extension TrackedArray {
  /// Appends `element`: a change at its new position.
  @inlinable
  public mutating func append(_ element: Element) {
    makeUnique()
    storage.contents.append(element)
    storage.log.record(storage.contents.count - 1, count: storage.contents.count)
  }

  /// Removes and returns the last element: a change at its old position.
  @inlinable
  @discardableResult
  public mutating func removeLast() -> Element {
    makeUnique()
    let element = storage.contents.removeLast()
    storage.log.record(storage.contents.count, count: storage.contents.count)
    return element
  }

  /// Inserts `element` at `index`, shifting the elements after it: the log
  /// restarts.
  @inlinable
  public mutating func insert(_ element: Element, at index: Int) {
    makeUnique()
    storage.contents.insert(element, at: index)
    storage.log.restart()
  }

  /// Removes the element at `index`, shifting the elements after it: the
  /// log restarts.
  @inlinable
  @discardableResult
  public mutating func remove(at index: Int) -> Element {
    makeUnique()
    let element = storage.contents.remove(at: index)
    storage.log.restart()
    return element
  }

  /// Removes every element: the array starts a new storage.
  @inlinable
  public mutating func removeAll() { storage = TrackedStorage([]) }
}

extension TrackedArray: ExpressibleByArrayLiteral {
  @inlinable
  public init(arrayLiteral elements: Element...) { self.init(elements) }
}

extension TrackedArray: Equatable where Element: Equatable {
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.contents == rhs.storage.contents
  }
}

extension TrackedArray: Hashable where Element: Hashable {
  @inlinable
  public func hash(into hasher: inout Hasher) { hasher.combine(storage.contents) }
}

extension TrackedArray: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { storage.contents.description }
  public var debugDescription: String { "TrackedArray(\(storage.contents.description))" }
}

extension TrackedArray: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(storage.contents)
  }
}

extension TrackedArray: Decodable where Element: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode([Element].self))
  }
}
