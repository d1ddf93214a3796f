extension Search {
  /// The reducer: the only place the search changes.
  ///
  /// It is the talk's reducer, with the guards a list needs: the bottom of
  /// the list loads a page only when one is shown and another exists (or,
  /// after an error, tries the failed page again, as the talk's
  /// `loadNextPage` lens allows); an answer counts only while a page loads.
  public static func reduce(_ state: State, _ event: Event) -> State {
    switch (state, event) {
    case (_, .newSearch(let query)):
      .loadingPage(.firstPage(of: query))
    case (.loadedPage(let context), .loadNextPage) where context.nextPage != nil:
      .loadingPage(context)
    case (.error(_, let context), .loadNextPage), (.error(_, let context), .retry):
      .loadingPage(context)
    case (.loadingPage(let context), .success(let page)):
      .loadedPage(context.merging(page))
    case (.loadingPage(let context), .failure(let failure)):
      .error(failure, context)
    default:
      state
    }
  }
}
