import AppExample
import FeedbackLoop
import PlayerExample
import SearchExample
import SignInExample

/// The composed app, scripted: sign-in, search, player and downloads, each
/// a child system of the app; the timeline names the feature of each event
/// and effect.
enum AppDemo {
  static let example = Example(
    name: "app",
    summary: "sign-in, search and player composed into one app, with downloads as child systems",
    run: run
  )

  static func describe(_ state: App.State) -> String {
    var parts = [state.user.map { "signed in as \($0)" } ?? "signed out"]
    if !state.search.isEmpty { parts.append("search open, \(state.results.count) results") }
    if let movie = state.player[.main] { parts.append("playing \(movie.title)") }
    if !state.downloads.isEmpty {
      parts.append("downloads \(state.downloads.keys.sorted()), done \(state.downloaded)")
    }
    return parts.joined(separator: "; ")
  }

  static func describe(_ event: App.Event) -> String {
    switch event {
    case .signIn(let event): "sign-in ← \(SignInDemo.describe(event))"
    case .search(let event): "search ← \(event)"
    case .player(let event): "player ← \(event)"
    case .download(let id, let event): "downloads[\(id)] ← \(event)"
    case .resultsChanged(let movies): "resultsChanged(\(movies.map(\.title)))"
    default: "\(event)"
    }
  }

  static func run(_ session: ExampleSession) async throws {
    example.printHeader(session, time: ScriptClock.description)
    let clock = ScriptClock()
    let script = Script(console: session.console, clock: clock)
    let printer = TimelinePrinter<App.State, App.Event>(
      console: session.console, now: clock.now, describeState: describe, describeEvent: describe)
    let children = App.Children()
    let app = App.system(
      children: children,
      auth: SimulatedAuthService(clock: clock.clock, tokenLifetime: .seconds(600)),
      api: CatalogueSearchAPI(clock: clock.clock),
      player: SimulatedVideoPlayer(clock: clock.clock),
      environment: clock.environment, monitor: try await session.monitor(printer, name: example.name))
    script.act {}
    session.console.line(
      "  Signed out, the app runs no search child (search \(children.search.count)): it opens one when someone signs in."
    )
    script.say("Sign in: the sign-in child signs ada in; its state comes up, and the app opens the search.")
    script.act { app.send(.signIn(.signIn(SimulatedAuthService.knownUser))) }
    script.wait(.seconds(1))
    script.say("Search for \"m\": the search child loads the page; its results come up.")
    script.act { app.send(.search(.newSearch("m"))) }
    script.wait(.milliseconds(500))
    script.say("Play the second result: a player child starts.")
    script.act { app.send(.play(1)) }
    script.say("Download both results; the first one's server fails once at 40%.")
    script.act {
      app.send(.addDownload(0, failsAt: 4))
      app.send(.addDownload(1, failsAt: nil))
    }
    script.wait(.milliseconds(500))
    script.say("Pause the second download, retry the first.")
    script.act {
      app.send(.download(2, .pause))
      app.send(.download(1, .retry))
    }
    script.wait(.milliseconds(700))
    session.console.line(
      "  children now: sign-in \(children.signIn.count), search \(children.search.count),"
        + " player \(children.player.count), downloads \(children.downloads.count)"
        + " (download 2 at \(children.downloads.state(of: 2)?.progress ?? 0)/10)")
    script.say("Remove the finished download: the app stops its child.")
    script.act { app.send(.removeDownload(1)) }
    script.say("Sign out: everything below the sign-in stops.")
    script.act { app.send(.signIn(.signOut)) }
    script.wait(.milliseconds(100))
    session.console.line(
      "  children now: sign-in \(children.signIn.count), search \(children.search.count),"
        + " player \(children.player.count), downloads \(children.downloads.count)")
    script.act { app.stop() }
    session.console.line("\nThe session ends \(describe(app.state)).")
  }
}
