import SearchExample
import SearchServer
import Testing

@Suite("The search API's data set")
struct MovieCatalogTests {
  @Test func theStandardCatalogueHoldsFiveThousandMoviesTheSameOnEveryRun() {
    let catalog = MovieCatalog.standard
    #expect(catalog.movies.count == 5_000)
    #expect(catalog.movies.map(\.id) == Array(1...5_000))
    #expect(MovieCatalog.generated(count: 5_000, seed: 2019).movies == catalog.movies)
    #expect(MovieCatalog.generated(count: 5_000, seed: 2020).movies != catalog.movies)
    #expect(catalog.movies.allSatisfy { (1950..<2025).contains($0.year) && !$0.title.isEmpty })
  }

  @Test func aSearchFindsTheTitlesThatContainEveryWordIgnoringCase() {
    let catalog = MovieCatalog.standard
    let found = catalog.search("STAR sea")
    #expect(!found.isEmpty)
    #expect(found.allSatisfy { $0.title.lowercased().contains("star") && $0.title.lowercased().contains("sea") })
    #expect(catalog.search("").count == 5_000)
    #expect(catalog.search("no such words").isEmpty)
  }

  @Test func pagesCutTheResultsInOrderAndTheLastHasNoNextPage() {
    let catalog = MovieCatalog.standard
    let found = catalog.search("star")
    #expect(found.count > 40)
    let first = catalog.page(of: "star", number: 1, size: 20)
    #expect(first.results == Array(found.prefix(20)))
    #expect(first.nextPage == 2)
    #expect(first.totalResults == found.count)
    #expect(first.totalPages == (found.count + 19) / 20)
    let last = catalog.page(of: "star", number: first.totalPages, size: 20)
    #expect(last.nextPage == nil)
    #expect(last.results == Array(found.suffix(found.count - (first.totalPages - 1) * 20)))
    let beyond = catalog.page(of: "star", number: first.totalPages + 1, size: 20)
    #expect(beyond.results.isEmpty && beyond.nextPage == nil)
    let nothing = catalog.page(of: "no such words", number: 1, size: 20)
    #expect(nothing.results.isEmpty && nothing.totalPages == 1 && nothing.nextPage == nil)
  }
}
