import FeedbackLoop
import FeedbackLoopTelemetry
import SearchExample
import SearchServer

/// The paginated search, in a terminal, against a real HTTP server that the
/// example starts on 127.0.0.1.
enum SearchDemo {
  static let example = Example(
    name: "search",
    summary:
      "The ReactiveFeedback talk's paginated search against a real HTTP API on 127.0.0.1: paging, cancellation, errors and retry",
    run: run
  )

  static let bindings = [
    KeyBinding(keys: "/", action: "type a search (each key searches; Enter ends)"),
    KeyBinding(keys: "↓ or b", action: "reach the bottom of the list"), KeyBinding(keys: "r", action: "retry"),
    KeyBinding(keys: "o", action: "server outage on/off"), KeyBinding(keys: "v", action: "view the results"),
  ]

  /// How long the server waits before each answer, unless `--latency` says.
  static let interactiveLatency: Duration = .milliseconds(400)
  static let scriptedLatency: Duration = .milliseconds(150)

  static func describe(_ state: Search.State) -> String {
    let context = state.context
    let shown = "\(context.results.count) of \(context.totalResults) movies"
    switch state {
    case .loadedPage(let context) where context == .initial:
      return "no search yet"
    case .loadingPage(let context):
      return "loading \(PageRequest(query: context.query, page: context.nextPage ?? 1))…"
        + (context.results.isEmpty ? "" : " · \(shown) shown")
    case .loadedPage(let context):
      let more = context.nextPage == nil ? "the last page" : "more below"
      return "\"\(context.query)\": \(shown), \(more)" + newest(context)
    case .error(let failure, _):
      return "error: \(failure) · \(shown) kept · r retries"
    }
  }

  /// The first titles of the page that came last: what the list shows new.
  static func newest(_ context: Search.Context) -> String {
    guard context.pagesLoaded > 0, !context.results.isEmpty else { return "" }
    let pageSize = 20
    let start = (context.pagesLoaded - 1) * pageSize
    guard start < context.results.count else { return "" }
    let titles = context.results[start...].prefix(2).map(\.description).joined(separator: ", ")
    return " · rows \(start + 1)–\(context.results.count): \(titles)…"
  }

  static func describe(_ event: Search.Event) -> String {
    switch event {
    case .success(let page):
      "success(page \(page.page) of \(page.totalPages): \(page.results.count) movies)"
    case .failure(let failure): "failure(\(failure))"
    default: "\(event)"
    }
  }

  static func run(_ session: ExampleSession) async throws {
    let time = RealTime()
    let latency = session.latency ?? (session.isInteractive ? interactiveLatency : scriptedLatency)
    let clockLine =
      session.isInteractive
      ? Example.interactiveTime
      : "Scripted session on the real ContinuousClock (the server and its client need real time), with a short server latency."
    let printer = TimelinePrinter<Search.State, Search.Event>(
      console: session.console, now: time.now, describeState: describe, describeEvent: describe)
    let server = SearchServer(latency: latency, metrics: ProcessMetrics.registry) { request in
      printer.note("server", request.description)
    }
    let port = try await server.start(port: session.port)
    example.printHeader(session, time: clockLine)
    let baseURL = "http://\(SearchServer.host):\(port)"
    session.console.lines([
      "The search API listens on \(baseURL) (try: curl '\(baseURL)/search?q=star&page=2'),",
      "over \(server.catalog.movies.count) movies, \(server.pageSize) a page; each answer waits \(latency).",
      "The search system's figures, for Prometheus: curl \(baseURL)/metrics", "",
    ])
    let search = System(
      initial: Search.State.initial, reduceReturning: Search.reduce,
      feedbacks: Search.feedbacks(api: HTTPSearchAPI(baseURL: baseURL)),
      // `.metrics(label:)` counts into the factory bootstrapped above,
      // whose registry the server's `/metrics` answers with.
      monitor: .combining([try await session.monitor(printer, name: example.name), .metrics(label: "search")]))
    do {
      if session.isInteractive {
        await interact(session, search, server, printer)
      } else {
        try await play(session, search, server, printer)
      }
    } catch {
      search.stop()
      await server.stop()
      throw error
    }
    search.stop()
    await server.stop()
  }

  static func interact(
    _ session: ExampleSession, _ search: System<Search.State, Search.Event>, _ server: SearchServer,
    _ printer: TimelinePrinter<Search.State, Search.Event>
  ) async {
    var typing = false
    var query = ""
    await Interactive.run(session, bindings: bindings) { key in
      if typing {
        switch key {
        case .enter, .escape: typing = false
        case .backspace where !query.isEmpty:
          query.removeLast()
          search.send(.newSearch(query))
        case .character(let character):
          query.append(character)
          search.send(.newSearch(query))
        default: break
        }
        return .handled
      }
      switch key {
      case .character("/"):
        typing = true
        query = ""
        printer.note("you", "type a search; each key starts a new one, which cancels the request in flight")
      case .down, .character("b"), .character("j"): search.send(.loadNextPage)
      case .character("r"): search.send(.retry)
      case .character("o"):
        server.setOutage(!server.outage)
        printer.note("server", server.outage ? "outage: every answer is now a 503" : "back: answers as usual")
      case .character("v"):
        let results = search.state.context.results
        session.console.lines(results.enumerated().map { "\(String($0.offset + 1).padding(6)) \($0.element)" })
      default: return .unknown
      }
      return .handled
    }
  }

  /// The scripted session: paging, a search that cancels another, a
  /// failure that keeps the results, and a retry.
  static func play(
    _ session: ExampleSession, _ search: System<Search.State, Search.Event>, _ server: SearchServer,
    _ printer: TimelinePrinter<Search.State, Search.Event>
  ) async throws {
    let say: (String) -> Void = { session.console.lines(["", "  ── \($0)"]) }
    say("Search \"star\": the request feedback loads page 1.")
    search.send(.newSearch("star"))
    try await search.waitUntil("page 1 of \"star\"") { $0.context.query == "star" && $0.context.pagesLoaded == 1 }

    say("Reach the bottom of the list: page 2 loads, its results appended.")
    search.send(.loadNextPage)
    try await search.waitUntil("page 2 of \"star\"") { $0.context.pagesLoaded == 2 }

    say(
      "Type \"moon\" quickly: each key is a new search, which cancels the request in flight. The server still "
        + "answers the cancelled ones, to a client that has gone: their answers never reach the reducer.")
    for prefix in ["m", "mo", "moo", "moon"] {
      search.send(.newSearch(prefix))
      try await Task.sleep(for: .milliseconds(40))
    }
    try await search.waitUntil("page 1 of \"moon\"") { $0.context.query == "moon" && $0.context.pagesLoaded == 1 }

    say("The server goes down. Reach the bottom: page 2 fails, the error shows, the results stay.")
    server.setOutage(true)
    printer.note("server", "outage: every answer is now a 503")
    search.send(.loadNextPage)
    try await search.waitUntil("the error") { if case .error = $0 { true } else { false } }

    say("The server is back. Retry: page 2 loads where it failed.")
    server.setOutage(false)
    printer.note("server", "back: answers as usual")
    search.send(.retry)
    try await search.waitUntil("page 2 of \"moon\"") { $0.context.pagesLoaded == 2 }

    say("The end: stopping the system cancels whatever still runs, and the server stops.")
    search.stop()
    let context = search.state.context
    session.console.line(
      "\n\"\(context.query)\": \(context.results.count) of \(context.totalResults) movies loaded. "
        + "In a terminal, search and scroll yourself.")
  }
}
