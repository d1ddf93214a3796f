/// An ``EventCase`` made of two closures: `embed` wraps a child event into
/// the parent's, `extract` takes it back out, or returns `nil` for a parent
/// event that is not the child's.
///
/// Every lift takes any ``EventCase``; this one is for a way in and out
/// written inline, or kept in a variable. A case type of your own costs
/// less in a deep tree: its methods inline, where these closures are
/// called one level after the other (see "Composing features").
///
/// ```swift
/// enum AppEvent: Sendable { case search(Search.Event), signedOut }
///
/// let toSearch = EventPath<AppEvent, Search.Event>(
///   embed: AppEvent.search,
///   extract: { if case .search(let event) = $0 { event } else { nil } }
/// )
/// let search = Search.feature.lifted(state: \AppState.search, event: toSearch)
/// ```
public struct EventPath<Parent: Sendable, Child: Sendable>: EventCase {
  @usableFromInline let embedding: @Sendable (Child) -> Parent
  @usableFromInline let extracting: @Sendable (Parent) -> Child?

  /// A path made of its two functions.
  public init(embed: @escaping @Sendable (Child) -> Parent, extract: @escaping @Sendable (Parent) -> Child?) {
    self.embedding = embed
    self.extracting = extract
  }

  /// The path that `eventCase` describes, as closures: one type for event
  /// cases of different types (to keep several in one array).
  ///
  /// ```swift
  /// let toSearch = EventPath(ToSearch())
  /// ```
  @inlinable
  public init<Case: EventCase>(_ eventCase: Case) where Case.Parent == Parent, Case.Child == Child {
    self.init(embed: { eventCase.embed($0) }, extract: { eventCase.extract($0) })
  }

  /// Wraps a child event into the parent's.
  @inlinable
  public func embed(_ child: Child) -> Parent { embedding(child) }

  /// The child event inside a parent event, or `nil` if it holds none.
  @inlinable
  public func extract(_ parent: Parent) -> Child? { extracting(parent) }

  /// The path from the parent to a grandchild through this child.
  ///
  /// ```swift
  /// let toResults = toSearch.appending(Search.toResults)
  /// ```
  public func appending<Next: EventCase>(_ next: Next) -> EventPath<Parent, Next.Child> where Next.Parent == Child {
    let (outerEmbed, outerExtract) = (embedding, extracting)
    return EventPath<Parent, Next.Child>(
      embed: { outerEmbed(next.embed($0)) },
      extract: { outerExtract($0).flatMap { next.extract($0) } })
  }
}

extension EventPath where Parent == Child {
  /// The path from an event type to itself.
  public static var identity: EventPath { EventPath(embed: { $0 }, extract: { $0 }) }
}

/// A ``ChildEventCase`` made of two closures: `embed` wraps a child's event
/// with the child's id, `extract` returns the id and the child's event, or
/// `nil`.
///
/// ```swift
/// enum Downloads { enum Event: Sendable { case download(Download.ID, Download.Event), add(URL) } }
///
/// let toDownload = ChildEventPath<Downloads.Event, Download.ID, Download.Event>(
///   embed: Downloads.Event.download,
///   extract: { if case .download(let id, let event) = $0 { (id, event) } else { nil } }
/// )
/// ```
public struct ChildEventPath<Parent: Sendable, ID: Hashable & Sendable, Child: Sendable>: ChildEventCase {
  @usableFromInline let embedding: @Sendable (ID, Child) -> Parent
  @usableFromInline let extracting: @Sendable (Parent) -> (ID, Child)?

  /// A path made of its two functions.
  public init(
    embed: @escaping @Sendable (ID, Child) -> Parent,
    extract: @escaping @Sendable (Parent) -> (ID, Child)?
  ) {
    self.embedding = embed
    self.extracting = extract
  }

  /// The path that `eventCase` describes, as closures.
  ///
  /// ```swift
  /// let toDownload = ChildEventPath(ToDownload())
  /// ```
  @inlinable
  public init<Case: ChildEventCase>(_ eventCase: Case)
  where Case.Parent == Parent, Case.ID == ID, Case.Child == Child {
    self.init(embed: { eventCase.embed($0, $1) }, extract: { eventCase.extract($0) })
  }

  /// Wraps the event of the child `id` into the parent's.
  @inlinable
  public func embed(_ id: ID, _ child: Child) -> Parent { embedding(id, child) }

  /// The child's id and event inside a parent event, or `nil`.
  @inlinable
  public func extract(_ parent: Parent) -> (ID, Child)? { extracting(parent) }
}
