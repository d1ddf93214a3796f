import SearchExample

/// The data set the search API serves: a catalogue of movies, and the
/// search over it.
///
/// The standard catalogue holds 5,000 movies made up by a deterministic
/// generator, the same on every machine: `The Silent Harbour (1987)`,
/// `Children of the Storm (2004)`, `Return to Lisbon (1962)`...
///
/// ```swift
/// let page = MovieCatalog.standard.page(of: "star", number: 1, size: 20)
/// ```
public struct MovieCatalog: Sendable {
  /// Every movie, in the order of their ids.
  public let movies: [Movie]

  /// A catalogue of `movies`.
  public init(movies: [Movie]) {
    self.movies = movies
  }

  /// The catalogue the examples serve: 5,000 generated movies.
  public static let standard = MovieCatalog.generated(count: 5_000, seed: 2019)

  /// Every movie whose title contains each word of `query`, ignoring case,
  /// in the catalogue's order. An empty query finds every movie.
  public func search(_ query: String) -> [Movie] {
    let words = query.lowercased().split(whereSeparator: \.isWhitespace)
    guard !words.isEmpty else { return movies }
    return movies.filter { movie in
      let title = movie.title.lowercased()
      return words.allSatisfy { title.contains($0) }
    }
  }

  /// Page `number` (from 1) of the search for `query`, `size` movies a
  /// page. A page past the last one is empty.
  public func page(of query: String, number: Int, size: Int) -> Page {
    let found = search(query)
    let totalPages = max(1, (found.count + size - 1) / size)
    let start = min((number - 1) * size, found.count)
    let end = min(start + size, found.count)
    return Page(
      query: query, page: number, totalPages: totalPages, totalResults: found.count,
      results: Array(found[start..<end]), nextPage: number < totalPages ? number + 1 : nil)
  }
}
