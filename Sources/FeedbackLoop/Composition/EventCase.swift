/// The way between a parent's event and a child's: `embed` wraps a child
/// event into the parent's, `extract` takes it back out, or returns `nil`
/// for a parent event that is not the child's. Every lift of a reducer, a
/// feedback or a feature goes through one.
///
/// Write one as a type: its methods are seen by the compiler, so that a
/// feature lifted through it many levels deep reduces an event in one
/// inlined pass, whatever the depth. ``EventPath`` is the one made of two
/// closures, for a way written inline. An enum case works without macros:
/// the case's constructor embeds, a `case let` pattern extracts.
///
/// ```swift
/// enum AppEvent: Sendable { case search(Search.Event), signedOut }
///
/// struct ToSearch: EventCase {
///   func embed(_ event: Search.Event) -> AppEvent { .search(event) }
///   func extract(_ event: AppEvent) -> Search.Event? {
///     if case .search(let event) = event { event } else { nil }
///   }
/// }
///
/// let app = Search.feature.lifted(state: \AppState.search, event: ToSearch())
/// ```
public protocol EventCase<Parent, Child>: Sendable {
  /// The parent's event.
  associatedtype Parent: Sendable
  /// The child's event.
  associatedtype Child: Sendable

  /// Wraps a child event into the parent's.
  func embed(_ child: Child) -> Parent
  /// The child event inside a parent event, or `nil` if it holds none.
  func extract(_ parent: Parent) -> Child?
}

/// The way between a parent's event and the event of one child of a
/// collection by id: see ``EventCase``; ``ChildEventPath`` is the one made
/// of two closures.
///
/// ```swift
/// enum DownloadsEvent: Sendable { case download(Download.ID, Download.Event), add(URL) }
///
/// struct ToDownload: ChildEventCase {
///   func embed(_ id: Download.ID, _ event: Download.Event) -> DownloadsEvent { .download(id, event) }
///   func extract(_ event: DownloadsEvent) -> (Download.ID, Download.Event)? {
///     if case .download(let id, let event) = event { (id, event) } else { nil }
///   }
/// }
/// ```
public protocol ChildEventCase<Parent, ID, Child>: Sendable {
  /// The parent's event.
  associatedtype Parent: Sendable
  /// What tells the children apart.
  associatedtype ID: Hashable & Sendable
  /// The child's event.
  associatedtype Child: Sendable

  /// Wraps the event of the child `id` into the parent's.
  func embed(_ id: ID, _ child: Child) -> Parent
  /// The child's id and event inside a parent event, or `nil`.
  func extract(_ parent: Parent) -> (ID, Child)?
}
