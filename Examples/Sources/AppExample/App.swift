import FeedbackLoop
import PlayerExample
import SearchExample
import SignInExample

/// The sign-in, search and player examples composed into one application,
/// without changing their modules, plus a list of downloads.
///
/// Each feature runs as a child system of the app, alive while the app's
/// state says so: the sign-in always; the search while someone is signed
/// in; the player while a chosen movie plays; one download per movie in the
/// list. Signing out empties the state below the sign-in, which stops every
/// child below it. The app's events carry the children's events down; the
/// children's states come back up as the app's events.
public enum App {
  /// The one instance of a single child.
  public enum Slot: Hashable, Sendable, CustomStringConvertible {
    case main
    public var description: String { "main" }
  }

  public struct State: Equatable, Sendable {
    /// Who is signed in, as the sign-in child says.
    public var user: String?
    /// The sign-in child: always there.
    public var signIn: TrackedDictionary<Slot, Int> = [.main: 0]
    /// The search child, while someone is signed in: for whom.
    public var search: TrackedDictionary<Slot, String> = [:]
    /// The results the search child shows, as it reports them.
    public var results: [Movie] = []
    /// The player child, while a movie plays.
    public var player: TrackedDictionary<Slot, Movie> = [:]
    /// One download child per movie id; where its server fails, if it does.
    public var downloads: TrackedDictionary<Int, Int?> = [:]
    /// The downloads that finished.
    public var downloaded: [Int] = []

    public init() {}
  }

  public enum Event: Equatable, Sendable {
    /// For the sign-in child.
    case signIn(SignIn.Event)
    /// For the search child.
    case search(Search.Event)
    /// For the player child.
    case player(Player.Event)
    /// For the download of a movie.
    case download(Int, Download.Event)
    /// The person plays the result at this position.
    case play(Int)
    case closePlayer
    /// The person downloads the result at this position; the server fails
    /// once at `failsAt` tenths, if given.
    case addDownload(Int, failsAt: Int?)
    case removeDownload(Int)
    /// Outcomes of the children.
    case signedIn(String)
    case signedOut
    case resultsChanged([Movie])
    case downloadFinished(Int)
  }

  public static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .signedIn(let user):
      guard state.user != user else { return }
      state.user = user
      state.search[.main] = user
    case .signedOut:
      guard state.user != nil else { return }
      state = State()
    case .resultsChanged(let movies):
      if state.results != movies { state.results = movies }
    case .play(let index):
      guard state.results.indices.contains(index) else { return }
      state.player[.main] = state.results[index]
    case .closePlayer:
      state.player[.main] = nil
    case .addDownload(let index, let failsAt):
      guard state.results.indices.contains(index) else { return }
      state.downloads[state.results[index].id] = failsAt
    case .removeDownload(let id):
      state.downloads[id] = nil
    case .downloadFinished(let id):
      guard state.downloads[id] != nil, !state.downloaded.contains(id) else { return }
      state.downloaded.append(id)
    case .signIn, .search, .player, .download:
      break
    }
  }

  /// The running children, readable by the views (and the tests).
  public struct Children: Sendable {
    public let signIn = ChildSystems<Slot, SignIn.State, SignIn.Event>()
    public let search = ChildSystems<Slot, Search.State, Search.Event>()
    public let player = ChildSystems<Slot, Player.State, Player.Event>()
    public let downloads = ChildSystems<Int, Download.State, Download.Event>()
    public init() {}
  }

  /// How the app makes each kind of child: the real features in the app,
  /// stubs (`ChildSystemStubs`) in a test of the app alone.
  public struct Makers: Sendable {
    public var signIn: @Sendable (Slot, Int) -> System<SignIn.State, SignIn.Event>
    public var search: @Sendable (Slot, String) -> System<Search.State, Search.Event>
    public var player: @Sendable (Slot, Movie) -> System<Player.State, Player.Event>
    public var download: @Sendable (Int, Int?) -> System<Download.State, Download.Event>

    public init(
      signIn: @escaping @Sendable (Slot, Int) -> System<SignIn.State, SignIn.Event>,
      search: @escaping @Sendable (Slot, String) -> System<Search.State, Search.Event>,
      player: @escaping @Sendable (Slot, Movie) -> System<Player.State, Player.Event>,
      download: @escaping @Sendable (Int, Int?) -> System<Download.State, Download.Event>
    ) {
      self.signIn = signIn
      self.search = search
      self.player = player
      self.download = download
    }

    /// The sign-in, search and player examples, unchanged, and the real
    /// downloads, all on `environment`.
    public static func features(
      auth: some AuthService, api: some SearchAPI, player: some VideoPlayer, environment: SystemEnvironment
    ) -> Makers {
      Makers(
        signIn: { _, _ in
          System(
            initial: .signedOut(nil), reduceReturning: SignIn.reduce, feedbacks: SignIn.feedbacks(auth: auth),
            environment: environment)
        },
        search: { _, _ in
          System(
            initial: Search.State.initial, reduceReturning: Search.reduce, feedbacks: Search.feedbacks(api: api),
            environment: environment)
        },
        player: { _, _ in
          System(
            initial: Player.State(), reduce: Player.reduce, feedbacks: Player.feedbacks(player: player),
            environment: environment)
        },
        download: { _, failsAt in Download.system(failsAt: failsAt, environment: environment) })
    }
  }

  /// The app's feedbacks: one per kind of child, each named after its
  /// feature, so that the timeline says which feature an effect belongs to.
  public static func feedbacks(children: Children, makers: Makers) -> [Feedback<State, Event>] {
    [
      .childSystems(
        children.signIn, for: \.signIn, name: "sign-in", make: makers.signIn,
        route: { if case .signIn(let event) = $0 { (.main, event) } else { nil } },
        outcome: { _, state in
          switch state {
          case .signedIn(let session): .signedIn(session.username)
          case .signedOut: .signedOut
          case .signingIn, .refreshing: nil
          }
        }),
      .childSystems(
        children.search, for: \.search, name: "search", make: makers.search,
        route: { if case .search(let event) = $0 { (.main, event) } else { nil } },
        outcome: { _, state in .resultsChanged(state.context.results) }),
      .childSystems(
        children.player, for: \.player, name: "player", make: makers.player,
        route: { if case .player(let event) = $0 { (.main, event) } else { nil } },
        outcome: { _, _ in nil }),
      .childSystems(
        children.downloads, for: \.downloads, name: "downloads", make: makers.download,
        route: { if case .download(let id, let event) = $0 { (id, event) } else { nil } },
        outcome: { id, state in state.isDone ? .downloadFinished(id) : nil }),
    ]
  }

  /// The app, started, its children made by `makers`.
  public static func system(
    children: Children, makers: Makers, environment: SystemEnvironment,
    monitor: SystemMonitor<State, Event>? = nil
  ) -> System<State, Event> {
    System(
      initial: State(), reduce: reduce, feedbacks: feedbacks(children: children, makers: makers),
      environment: environment, monitor: monitor)
  }

  /// The app, started, with the real features.
  public static func system(
    children: Children, auth: some AuthService, api: some SearchAPI, player: some VideoPlayer,
    environment: SystemEnvironment, monitor: SystemMonitor<State, Event>? = nil
  ) -> System<State, Event> {
    system(
      children: children,
      makers: .features(auth: auth, api: api, player: player, environment: environment),
      environment: environment, monitor: monitor)
  }
}

/// A search API over a small catalogue in memory, answering after `latency`
/// on the given clock: for the scripted demo and the tests.
public struct CatalogueSearchAPI: SearchAPI {
  public let clock: any Clock<Duration>
  public let latency: Duration
  public static let movies = [
    Movie(id: 1, title: "Metropolis", year: 1927), Movie(id: 2, title: "Modern Times", year: 1936),
    Movie(id: 3, title: "The General", year: 1926), Movie(id: 4, title: "Sunrise", year: 1927),
  ]

  public init(clock: any Clock<Duration>, latency: Duration = .milliseconds(300)) {
    self.clock = clock
    self.latency = latency
  }

  public func page(_ request: PageRequest) async throws -> Page {
    try await clock.sleep(for: latency)
    let found = Self.movies.filter { $0.title.lowercased().contains(request.query.lowercased()) }
    return Page(
      query: request.query, page: 1, totalPages: 1, totalResults: found.count, results: found, nextPage: nil)
  }
}
