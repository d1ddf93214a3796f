/// One entry of the search API's catalogue.
public struct Movie: Codable, Hashable, Sendable, CustomStringConvertible {
  /// The movie's number in the catalogue.
  public var id: Int
  /// The movie's title.
  public var title: String
  /// The year it came out.
  public var year: Int

  /// A movie.
  public init(id: Int, title: String, year: Int) {
    self.id = id
    self.title = title
    self.year = year
  }

  /// The title and the year: `The Silent Harbour (1987)`.
  public var description: String { "\(title) (\(year))" }
}
