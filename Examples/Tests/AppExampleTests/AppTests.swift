import AppExample
import FeedbackLoop
import FeedbackLoopTesting
import PlayerExample
import SearchExample
import SignInExample
import Testing

@Suite("The composed app: sign-in, search, player and downloads as child systems")
struct AppTests {
  /// The app on a test clock: the server answers in 0.5 s, the catalogue
  /// in 0.3 s; every child runs its effects on the test's executor.
  struct Harness {
    let clock = TestClock()
    let children = App.Children()
    let app: TestSystem<App.State, App.Event>

    init() {
      let (clock, children) = (clock, children)
      let auth = SimulatedAuthService(clock: clock, latency: .milliseconds(500), tokenLifetime: .seconds(600))
      let api = CatalogueSearchAPI(clock: clock)
      let player = SimulatedVideoPlayer(clock: clock)
      app = TestSystem(clock: clock, exhaustivity: .off) { environment, monitor in
        App.system(
          children: children, auth: auth, api: api, player: player, environment: environment, monitor: monitor)
      }
    }

    func signIn() {
      app.send(.signIn(.signIn(SimulatedAuthService.knownUser)))
      app.advance(by: .milliseconds(500))
    }
  }

  @available(macOS 15.0, *)
  @Test("G6 signing in opens the search; a chosen result opens the player; signing out stops everything below")
  func signInSearchPlaySignOut() throws {
    let harness = Harness()
    let app = harness.app
    #expect(harness.children.signIn.count == 1)
    #expect(harness.children.search.count == 0)
    harness.signIn()
    #expect(app.state.user == "ada")
    #expect(harness.children.search.count == 1)
    app.send(.search(.newSearch("m")))
    app.advance(by: .milliseconds(300))
    #expect(app.state.results.map(\.title) == ["Metropolis", "Modern Times"])
    app.send(.play(1))
    let player = try #require(harness.children.player[.main])
    #expect(app.state.player[.main]?.title == "Modern Times")
    app.send(.addDownload(0, failsAt: nil))
    let download = try #require(harness.children.downloads[1])
    let search = try #require(harness.children.search[.main])
    app.send(.signIn(.signOut))
    #expect(app.state == App.State())
    #expect(player.isStopped && download.isStopped && search.isStopped)
    #expect(harness.children.search.count == 0 && harness.children.player.count == 0)
    #expect(harness.children.downloads.count == 0)
    #expect(harness.children.signIn.count == 1)
    app.skipInFlightEffects()
    app.finish()
  }

  @available(macOS 15.0, *)
  @Test("G4 a download makes progress, pauses, fails, retries and reports when done")
  func downloadProgressPauseRetry() throws {
    let harness = Harness()
    let app = harness.app
    harness.signIn()
    app.send(.search(.newSearch("e")))
    app.advance(by: .milliseconds(300))
    app.send(.addDownload(0, failsAt: 6))
    let id = app.state.results[0].id
    app.advance(by: .milliseconds(300))
    #expect(harness.children.downloads.state(of: id)?.progress == 3)
    app.send(.download(id, .pause))
    app.advance(by: .seconds(1))
    #expect(harness.children.downloads.state(of: id)?.progress == 3)
    app.send(.download(id, .resume))
    app.advance(by: .milliseconds(300))
    #expect(harness.children.downloads.state(of: id)?.isFailed == true)
    #expect(harness.children.downloads.state(of: id)?.progress == 6)
    app.send(.download(id, .retry))
    app.advance(by: .milliseconds(400))
    #expect(app.state.downloaded == [id])
    app.send(.removeDownload(id))
    #expect(harness.children.downloads.count == 0)
    app.skipInFlightEffects()
    app.finish()
  }

  @available(macOS 15.0, *)
  @Test("an event for the search while signed out is discarded with a reason, in the timeline")
  func searchWhileSignedOutIsReported() {
    let harness = Harness()
    let app = harness.app
    app.send(.search(.newSearch("m")))
    #expect(app.timeline.description.contains("no such child"))
    app.skipInFlightEffects()
    app.finish()
  }

  @available(macOS 15.0, *)
  @Test("G6 the app alone, each child a stub: children start and stop as the app's state says, outcomes come up")
  func parentAloneWithStubbedChildren() throws {
    let stubs = ChildSystemStubs()
    let session = Session(username: "ada", accessToken: "a", lifetime: .seconds(600), refreshToken: "r")
    stubs.stub(System<SignIn.State, SignIn.Event>.self, id: App.Slot.main, initial: .signedOut(nil)) {
      state, event in
      switch event {
      case .signIn: state = .signedIn(session)
      case .signOut: state = .signedOut(nil)
      default: break
      }
    }
    let found = Array(CatalogueSearchAPI.movies.prefix(2))
    let context = Search.Context(query: "m", results: found, pagesLoaded: 1, totalResults: 2, nextPage: nil)
    stubs.stub(System<Search.State, Search.Event>.self, id: App.Slot.main, initial: .loadedPage(context))
    stubs.stub(System<Player.State, Player.Event>.self, id: App.Slot.main, initial: Player.State())
    stubs.stub(System<Download.State, Download.Event>.self, id: 2, initial: Download.State()) { state, event in
      if event == .progressed { state.progress = 10 }
    }
    let makers = App.Makers(
      signIn: stubs.make(System<SignIn.State, SignIn.Event>.self, placeholder: .signedOut(nil)),
      search: stubs.make(System<Search.State, Search.Event>.self, placeholder: .initial),
      player: stubs.make(System<Player.State, Player.Event>.self, placeholder: Player.State()),
      download: stubs.make(System<Download.State, Download.Event>.self, placeholder: Download.State()))
    let children = App.Children()
    let app = TestSystem<App.State, App.Event>(exhaustivity: .off) { environment, monitor in
      App.system(children: children, makers: makers, environment: environment, monitor: monitor)
    }
    app.send(.signIn(.signIn(SimulatedAuthService.knownUser)))
    #expect(app.state.user == "ada")
    #expect(app.state.results == found)
    app.send(.play(1))
    #expect(children.player.count == 1)
    app.send(.addDownload(1, failsAt: nil))
    app.send(.download(2, .progressed))
    #expect(app.state.downloaded == [2])
    #expect(stubs.received(System<Download.State, Download.Event>.self, id: 2) == [.progressed])
    let search = try #require(children.search[.main])
    app.send(.signIn(.signOut))
    #expect(search.isStopped)
    #expect(children.search.count == 0 && children.player.count == 0 && children.downloads.count == 0)
    #expect(stubs.startCount(System<Search.State, Search.Event>.self, id: App.Slot.main) == 1)
    stubs.verify()
    app.skipInFlightEffects()
    app.finish()
  }
}
