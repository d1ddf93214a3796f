extension Search {
  /// Where the search is: the talk's three states, each with its context.
  public enum State: Equatable, Sendable {
    /// A page is loading: ``Context/nextPage`` of the context.
    case loadingPage(Context)
    /// The pages so far are shown; the list waits for its bottom.
    case loadedPage(Context)
    /// The last page failed; the results so far are kept.
    case error(SearchFailure, Context)

    /// Before any search.
    public static let initial = State.loadedPage(.initial)

    /// The context, whatever the state.
    public var context: Context {
      switch self {
      case .loadingPage(let context), .loadedPage(let context), .error(_, let context): context
      }
    }

    /// The page to request, while loading: the query of the request
    /// feedback. A new search changes it, which cancels the request in
    /// flight; leaving the loading state makes it `nil`.
    public var pageToLoad: PageRequest? {
      guard case .loadingPage(let context) = self, let page = context.nextPage else { return nil }
      return PageRequest(query: context.query, page: page)
    }
  }
}
