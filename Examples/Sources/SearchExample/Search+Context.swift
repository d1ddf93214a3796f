extension Search {
  /// What a search has loaded so far, and what it loads next (the talk's `Context`).
  public struct Context: Equatable, Sendable {
    /// The words searched for.
    public var query: String
    /// The movies loaded so far, page after page.
    public var results: [Movie]
    /// How many pages are loaded.
    public var pagesLoaded: Int
    /// How many movies the search found in all, as the last page said.
    public var totalResults: Int
    /// The page to load next, `nil` once the last page is loaded.
    public var nextPage: Int?

    /// A context.
    public init(query: String, results: [Movie], pagesLoaded: Int, totalResults: Int, nextPage: Int?) {
      self.query = query
      self.results = results
      self.pagesLoaded = pagesLoaded
      self.totalResults = totalResults
      self.nextPage = nextPage
    }

    /// No search yet.
    public static let initial = Context(query: "", results: [], pagesLoaded: 0, totalResults: 0, nextPage: nil)

    /// A new search for `query`, about to load its first page.
    public static func firstPage(of query: String) -> Context {
      Context(query: query, results: [], pagesLoaded: 0, totalResults: 0, nextPage: 1)
    }

    /// The context after `page` arrived: its results appended, its next page next.
    public func merging(_ page: Page) -> Context {
      Context(
        query: query, results: results + page.results, pagesLoaded: pagesLoaded + 1,
        totalResults: page.totalResults, nextPage: page.nextPage)
    }
  }
}
