/// A request the search server answered, as it reports them: what the
/// examples show in their timeline, and what tests wait for.
public struct ServedRequest: Sendable, Hashable, CustomStringConvertible {
  /// The words searched for.
  public var query: String
  /// The page asked for, if the request named a valid one.
  public var page: Int?
  /// The HTTP status of the answer.
  public var status: Int
  /// How many movies the answer held.
  public var resultCount: Int

  /// A served request.
  public init(query: String, page: Int?, status: Int, resultCount: Int) {
    self.query = query
    self.page = page
    self.status = status
    self.resultCount = resultCount
  }

  /// `GET /search?q=star&page=2 → 200, 20 movies`.
  public var description: String {
    let target = "GET /search?q=\(query)" + (page.map { "&page=\($0)" } ?? "")
    return status == 200 ? "\(target) → 200, \(resultCount) movies" : "\(target) → \(status)"
  }
}
