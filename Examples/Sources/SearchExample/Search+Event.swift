extension Search {
  /// What can happen to a search: the talk's four events, and the README's retry.
  public enum Event: Equatable, Sendable {
    /// The person searched for these words.
    case newSearch(String)
    /// The list reached its bottom.
    case loadNextPage
    /// The person asked to try the failed page again.
    case retry
    /// A page arrived.
    case success(Page)
    /// A page failed.
    case failure(SearchFailure)
  }
}
