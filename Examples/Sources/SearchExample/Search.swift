/// The ReactiveFeedback talk's paginated search (and the movie paging of the ReactiveFeedback
/// README): a search loads its first page; reaching the bottom of the list
/// loads the next; a new search cancels the page in flight; a failure shows
/// an error and keeps the results; retry resumes where it failed.
///
/// The talk's point: the URL of page 2 is in the *response* to page 1 (a
/// cyclic dependency), and a new search must cancel what is loading (a
/// side effect to cancel). The state machine gives the next page a place to
/// live, ``Context/nextPage``; one query feedback loads whatever page the
/// state asks for, ``State/pageToLoad``, and cancels it when the state asks
/// for another one or none (G4).
///
/// ```text
///               newSearch                 success
///  loadedPage ─────────────▶ loadingPage ─────────▶ loadedPage
///      │  ▲   loadNextPage       ▲    │ failure
///      │  └──────────────────────┘    ▼
///      │                        error(results kept) ──retry / loadNextPage──▶ loadingPage
/// ```
///
/// ```swift
/// let search = System(
///   initial: Search.State.initial,
///   reduceReturning: Search.reduce,
///   feedbacks: Search.feedbacks(api: HTTPSearchAPI(baseURL: "http://127.0.0.1:8080"))
/// )
/// search.send(.newSearch("star"))
/// ```
public enum Search {}
