/// A set that remembers its last changes, so that a keyed feedback over it
/// (``Feedback/requests(_:name:fileID:line:effects:)-((State)->TrackedSet<Request>,_,_,_,_)``)
/// costs O(1) per changed request, however many requests the set holds.
///
/// A `TrackedSet` is a `Set` with a short log of the elements inserted and
/// removed, kept in the same copy-on-write storage. A feedback over a plain
/// `Set` keeps the last set to compare the next one with: the comparison
/// costs O(n), and the kept copy makes the reducer's next insertion copy the
/// whole set. A feedback over a `TrackedSet` keeps no copy, only where it
/// stopped reading the log; it reads the elements changed since, and the
/// reducer's changes stay in place. An event that inserts one request and
/// removes one costs the same with 100 requests or 100,000.
///
/// ```swift
/// struct State: Sendable, Equatable {
///   var subscriptions: TrackedSet<Channel.ID> = []
/// }
///
/// let reduce: @Sendable (inout State, Event) -> Void = { state, event in
///   switch event {
///   case .subscribe(let channel): state.subscriptions.insert(channel)
///   case .unsubscribe(let channel): state.subscriptions.remove(channel)
///   }
/// }
///
/// Feedback<State, Event>.requests(\.subscriptions) { channel in
///   .sequence(hub.messages(on: channel).map { .received($0, on: channel) })
/// }
/// ```
///
/// It is a `SetAlgebra` and a `Collection`, with `Set`'s semantics and
/// costs, and their members (`subtracting(_:)`, `isSubset(of:)`, `map`,
/// an array literal...) are the protocols' own; `==` compares elements. The log holds the last `max(32, count / 4)`
/// changes (one element each). A feedback compares the whole set, once, when
/// it cannot read the log: at its first state, when it fell further behind
/// than the log goes (a reducer that changed more than a quarter of the set
/// in one event), and when the state holds another storage than the one it
/// read last, that is after a change made while another copy of the set was
/// alive, which copies the set as `Set` would, or after an operation that
/// builds a new set (`union`, an assignment such as `set = []`). Copies stay
/// alive where states are kept: an observer that stores them, a view, a
/// ``SystemMonitor`` (handed the state before and after every event, it
/// makes every change copy the set), a test's recorded timeline.
public struct TrackedSet<Element: Hashable & Sendable>: Sendable, TrackedCollection {
  @usableFromInline var storage: TrackedStorage<Set<Element>, Element>

  /// An empty set.
  @inlinable
  public init() { storage = TrackedStorage([]) }

  /// A set of the elements of `elements` (a `Set` is adopted as it is,
  /// sharing its storage).
  @inlinable
  public init<Elements: Sequence>(_ elements: Elements) where Elements.Element == Element {
    storage = TrackedStorage(Set(elements))
  }

  /// The elements, as a `Set` (shares the storage until either changes).
  @inlinable
  public var elements: Set<Element> { storage.contents }

}

extension TrackedSet: Equatable {
  @inlinable
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.storage === rhs.storage || lhs.storage.contents == rhs.storage.contents
  }
}

extension TrackedSet: Hashable {
  @inlinable
  public func hash(into hasher: inout Hasher) { hasher.combine(storage.contents) }
}

extension TrackedSet: Collection {
  public typealias Index = Set<Element>.Index

  @inlinable public var startIndex: Index { storage.contents.startIndex }
  @inlinable public var endIndex: Index { storage.contents.endIndex }
  @inlinable public var count: Int { storage.contents.count }
  @inlinable public var isEmpty: Bool { storage.contents.isEmpty }
  @inlinable public func index(after index: Index) -> Index { storage.contents.index(after: index) }
  @inlinable public subscript(position: Index) -> Element { storage.contents[position] }
}

extension TrackedSet: SetAlgebra {
  @inlinable
  public func contains(_ member: Element) -> Bool { storage.contents.contains(member) }

  @inlinable
  @discardableResult
  public mutating func insert(_ newMember: Element) -> (inserted: Bool, memberAfterInsert: Element) {
    makeUnique()
    let result = storage.contents.insert(newMember)
    if result.inserted { storage.log.record(newMember, count: storage.contents.count) }
    return result
  }

  @inlinable
  @discardableResult
  public mutating func remove(_ member: Element) -> Element? {
    makeUnique()
    let removed = storage.contents.remove(member)
    if let removed { storage.log.record(removed, count: storage.contents.count) }
    return removed
  }

  /// Inserts `newMember`, or replaces an equal element with it (which is no
  /// change of membership, so not logged).
  @inlinable
  @discardableResult
  public mutating func update(with newMember: Element) -> Element? {
    makeUnique()
    let previous = storage.contents.update(with: newMember)
    if previous == nil { storage.log.record(newMember, count: storage.contents.count) }
    return previous
  }

  @inlinable
  public func union(_ other: Self) -> Self { Self(storage.contents.union(other.storage.contents)) }

  @inlinable
  public func intersection(_ other: Self) -> Self { Self(storage.contents.intersection(other.storage.contents)) }

  @inlinable
  public func symmetricDifference(_ other: Self) -> Self {
    Self(storage.contents.symmetricDifference(other.storage.contents))
  }

  // The mutating forms change the set element by element, so that a
  // feedback reads what they changed from the log (O(changes)).

  @inlinable
  public mutating func formUnion(_ other: Self) {
    for element in other where !contains(element) { insert(element) }
  }

  @inlinable
  public mutating func formIntersection(_ other: Self) {
    for element in storage.contents where !other.contains(element) { remove(element) }
  }

  @inlinable
  public mutating func formSymmetricDifference(_ other: Self) {
    for element in other {
      if contains(element) { remove(element) } else { insert(element) }
    }
  }

  @inlinable
  public mutating func subtract(_ other: Self) {
    for element in other { remove(element) }
  }
}

extension TrackedSet: CustomStringConvertible, CustomDebugStringConvertible {
  public var description: String { storage.contents.description }
  public var debugDescription: String { "TrackedSet(\(storage.contents.description))" }
}

extension TrackedSet: Encodable where Element: Encodable {
  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(storage.contents)
  }
}

extension TrackedSet: Decodable where Element: Decodable {
  public init(from decoder: any Decoder) throws {
    self.init(try decoder.singleValueContainer().decode(Set<Element>.self))
  }
}
