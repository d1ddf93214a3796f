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
/// It is a `MutableCollection`, a `RandomAccessCollection` indexed from 0
/// and a `RangeReplaceableCollection`, with `Array`'s semantics and costs,
/// and those protocols' members (`append`, `insert(_:at:)`,
/// `remove(at:)`, `removeAll()`, `init(repeating:count:)`...); `==`
/// compares elements. Setting an element (`array[i] = x`, `array[i] += 1`,
/// `swapAt`), and a change at the end (`append`, `removeLast`) log the
/// positions they change; a change that shifts the elements after it
/// (`insert(_:at:)` or `remove(at:)` before the end) and `removeAll()`
/// restart the log, and the watching feedbacks then compare every element
/// once. As with ``TrackedSet``, a change made while another copy of the array
/// is alive (kept by an observer, a view, a ``SystemMonitor``) copies it and
/// restarts the log.
public struct TrackedArray<Element: Sendable>: Sendable, TrackedCollection {
  @usableFromInline var storage: TrackedStorage<[Element], Int>

  /// An empty array.
  @inlinable
  public init() { storage = TrackedStorage([]) }

  /// An array of `elements` (not logged: a feedback compares a new array
  /// whole once).
  @inlinable
  init(contents elements: [Element]) { storage = TrackedStorage(elements) }

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

extension TrackedArray: RangeReplaceableCollection {
  /// Replaces the elements at `subrange` with `newElements`; every other
  /// change of the array's length (`append`, `insert(_:at:)`,
  /// `remove(at:)`, `removeLast()`...) comes here. A change at the end, or
  /// one that keeps the length, logs the positions it changes; one that
  /// shifts the elements after it restarts the log.
  @inlinable
  public mutating func replaceSubrange<Replacement: Collection>(
    _ subrange: Range<Int>, with newElements: Replacement
  ) where Replacement.Element == Element {
    makeUnique()
    let oldCount = storage.contents.count
    storage.contents.replaceSubrange(subrange, with: newElements)
    let newCount = storage.contents.count
    if newCount == oldCount {
      for position in subrange { storage.log.record(position, count: newCount) }
    } else if subrange.upperBound == oldCount {
      for position in subrange.lowerBound..<Swift.max(oldCount, newCount) {
        storage.log.record(position, count: newCount)
      }
    } else {
      storage.log.restart()
    }
  }
}

extension TrackedArray: ExpressibleByArrayLiteral {
  @inlinable
  public init(arrayLiteral elements: Element...) { self.init(contents: elements) }
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
    self.init(contents: try decoder.singleValueContainer().decode([Element].self))
  }
}
