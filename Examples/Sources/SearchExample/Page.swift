/// One page of search results, as the search API sends it (ReactiveFeedback's
/// `Results<Movie>`).
public struct Page: Codable, Hashable, Sendable {
  /// The search the page answers.
  public var query: String
  /// The page's number, from 1.
  public var page: Int
  /// How many pages the search has in all.
  public var totalPages: Int
  /// How many movies the search found in all.
  public var totalResults: Int
  /// The movies on this page.
  public var results: [Movie]
  /// The next page to ask for, `nil` on the last page: where the talk's
  /// "URL B" comes from.
  public var nextPage: Int?

  /// A page of results.
  public init(query: String, page: Int, totalPages: Int, totalResults: Int, results: [Movie], nextPage: Int?) {
    self.query = query
    self.page = page
    self.totalPages = totalPages
    self.totalResults = totalResults
    self.results = results
    self.nextPage = nextPage
  }
}
