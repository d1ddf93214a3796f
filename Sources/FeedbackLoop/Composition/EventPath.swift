/// The way between a parent's event and a child's: `embed` wraps a child
/// event into the parent's, `extract` takes it back out, or returns `nil`
/// for a parent event that is not the child's.
///
/// An enum case works without macros: its constructor is the embedding
/// function, and a `case let` pattern the extracting one.
///
/// ```swift
/// enum AppEvent: Sendable { case search(Search.Event), signedOut }
///
/// let toSearch = EventPath<AppEvent, Search.Event>(
///   embed: AppEvent.search,
///   extract: { if case .search(let event) = $0 { event } else { nil } }
/// )
/// ```
public struct EventPath<Parent: Sendable, Child: Sendable>: Sendable {
  /// Wraps a child event into the parent's.
  public let embed: @Sendable (Child) -> Parent
  /// The child event inside a parent event, or `nil` if it holds none.
  public let extract: @Sendable (Parent) -> Child?

  /// A path made of its two functions.
  public init(embed: @escaping @Sendable (Child) -> Parent, extract: @escaping @Sendable (Parent) -> Child?) {
    self.embed = embed
    self.extract = extract
  }

  /// The path from the parent to a grandchild through this child.
  public func appending<Grandchild: Sendable>(_ next: EventPath<Child, Grandchild>) -> EventPath<Parent, Grandchild> {
    let (outerEmbed, outerExtract) = (embed, extract)
    return EventPath<Parent, Grandchild>(
      embed: { outerEmbed(next.embed($0)) },
      extract: { outerExtract($0).flatMap(next.extract) })
  }
}

extension EventPath where Parent == Child {
  /// The path from an event type to itself.
  public static var identity: EventPath { EventPath(embed: { $0 }, extract: { $0 }) }
}

/// The way between a parent's event and the event of one child of a
/// collection by id: `embed` wraps a child's event with the child's id,
/// `extract` returns the id and the child's event, or `nil`.
///
/// ```swift
/// enum Downloads { enum Event: Sendable { case download(Download.ID, Download.Event), add(URL) } }
///
/// let toDownload = ChildEventPath<Downloads.Event, Download.ID, Download.Event>(
///   embed: Downloads.Event.download,
///   extract: { if case .download(let id, let event) = $0 { (id, event) } else { nil } }
/// )
/// ```
public struct ChildEventPath<Parent: Sendable, ID: Hashable & Sendable, Child: Sendable>: Sendable {
  /// Wraps the event of the child `id` into the parent's.
  public let embed: @Sendable (ID, Child) -> Parent
  /// The child's id and event inside a parent event, or `nil`.
  public let extract: @Sendable (Parent) -> (ID, Child)?

  /// A path made of its two functions.
  public init(
    embed: @escaping @Sendable (ID, Child) -> Parent,
    extract: @escaping @Sendable (Parent) -> (ID, Child)?
  ) {
    self.embed = embed
    self.extract = extract
  }
}
