/// A page of a search to load: the query of the request feedback.
public struct PageRequest: Hashable, Sendable, CustomStringConvertible {
  /// The words searched for.
  public var query: String
  /// The page's number, from 1.
  public var page: Int

  /// Page `page` of the search for `query`.
  public init(query: String, page: Int) {
    self.query = query
    self.page = page
  }

  /// `"star" page 2`.
  public var description: String { "\"\(query)\" page \(page)" }
}
