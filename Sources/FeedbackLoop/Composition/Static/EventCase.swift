/// The way between a parent's event and a child's, as a type: the same two
/// functions as an ``EventPath``, but methods of a type that the compiler
/// sees, so that a feature lifted through it many levels deep reduces an
/// event in one inlined pass, whatever the depth (the nested-lifts benchmark in BENCHMARKS.md).
///
/// An enum case works without macros: the case's constructor embeds, a
/// `case let` pattern extracts.
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
/// collection by id, as a type: see ``EventCase`` and ``ChildEventPath``.
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

extension EventPath {
  /// The path that `eventCase` describes, as closures: what the lifted
  /// feedbacks keep.
  ///
  /// ```swift
  /// let toSearch = EventPath(ToSearch())
  /// ```
  @inlinable
  public init<Case: EventCase>(_ eventCase: Case) where Case.Parent == Parent, Case.Child == Child {
    self.init(embed: { eventCase.embed($0) }, extract: { eventCase.extract($0) })
  }
}

extension ChildEventPath {
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
}
