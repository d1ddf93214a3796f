import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopDeclarative
import Foundation
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

/// The monitor for real: the server started, the paged search connected
/// through the client, and the page loaded in headless Chromium (a plain
/// subprocess, see `HeadlessChromium`), whose self-test scrubs to a moment,
/// drives every action from the page's own controls (see monitor.js), and
/// the test checks each on the app's side too: its recorded moments, its state
/// and its effects.
@Suite(.serialized) struct MonitorPageTests {
  struct SelfTest: Decodable {
    struct Selection: Decodable {
      var moment: String
      var added: [String]
      var removed: [String]
    }

    struct Diagram: Decodable {
      var nodes: [String]
      var edges: Int
      var labels: [String]
    }

    struct Travel: Decodable {
      var moment: String
      var rows: Int
      var state: PagedSearch.State
      var diff: [String]
      var effects: [String]
    }

    /// A moment as the page saw it.
    struct Seen: Decodable {
      var moment: String
      var state: PagedSearch.State
      var effects: [String]
      var event: JSONValue?
      var editorStillEdited: Bool?
    }

    struct Saved: Decodable {
      var name: String
      var text: String
    }

    struct Opened: Decodable {
      var system: String
      var status: String
      var systems: [String]
      var moments: [Seen]
      var messages: [String]
    }

    struct Rejected: Decodable {
      var messages: [String]
      var moments: Int
    }

    var phase: String
    /// The step the self-test was in when it timed out.
    var stoppedIn: String?
    var timeline: [String]?
    var sources: [String]?
    var diffAt: Selection?
    var diffNested: [String]?
    var diagram: Diagram?
    var effectsAtJump: [String]?
    var travel: Travel?
    var sent: Seen?
    var applied: Seen?
    var playedEvents: [Seen]?
    var playedStates: [Seen]?
    var rejected: Rejected?
    var fixtures: String?
    var fixtureDownload: String?
    var saved: Saved?
    var opened: Opened?
  }

  /// The diagram the app sends: a declared system's, as
  /// FeedbackLoopDeclarative's `StateDiagram.mermaid` writes it, with its
  /// checks (`Offline` cannot be reached and has no way out). The paged
  /// search is not declared with the DSL; the page reads only the text.
  static let diagram = StateDiagram(
    initialState: "Idle", states: ["Idle", "Loading", "Loaded", "LoadingMore", "Failed", "Offline"],
    transitions: [
      .init(from: "Idle", event: "search", to: "Loading"),
      .init(from: "Loading", event: "loaded", to: "Loaded"),
      .init(from: "Loading", event: "failed", to: "Failed"),
      .init(from: "Loaded", event: "loadNextPage", to: "LoadingMore"),
      .init(from: "LoadingMore", event: "loaded", to: "Loaded"),
      .init(from: "Loaded", event: "search", to: "Loading"),
      .init(from: "Failed", event: "retry", to: "Loading"),
      .init(from: "Loaded", event: "refresh", to: "Loaded"),
    ]
  ).mermaid

  /// The monitor started, the paged search recorded two pages and connected,
  /// and the page's address with the self-test's script.
  struct LiveScenario {
    let server: MonitorServer
    let silent: SilentPort
    let harness: Harness
    let recorder: Recorder<PagedSearch.State, PagedSearch.Event>
    let system: System<PagedSearch.State, PagedSearch.Event>
    let client: MonitorClient
    let url: String

    static func start() async throws -> LiveScenario {
      let server = MonitorServer()
      let ports = try await server.start()
      let silent = try await SilentPort.open()
      let harness = Harness()
      let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(
        capacity: 1_000, system: "search", clock: harness.clock)
      let system = harness.search(recorder: recorder)
      // Recorded before the app connects: the client sends these first.
      harness.recordTwoPages(system)
      let client = try await MonitorClient.connect(
        port: ports.app, secret: server.secret, system: system, recorder: recorder, diagram: MonitorPageTests.diagram)
      func query(_ value: String) -> String {
        value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
      }
      let names =
        #"{"module":"","state":"PagedSearch.State","event":"PagedSearch.Event","reducer":"PagedSearch.reduce"}"#
      let url =
        "http://127.0.0.1:\(ports.page)/?secret=\(server.secret)&selftest=1&moments=5&diff=4&jump=3"
        + "&event=\(query(#"{"search":{"_0":"rust"}}"#))"
        + "&edit=\(query(#"{"query":"edited","results":["hand-written"],"loadingPage":null,"nextPage":2}"#))"
        + "&playEvents=2&playStates=9&pick=2,4&names=\(query(names))&show=7"
        + "&hold=http://127.0.0.1:\(silent.port)/"
      return LiveScenario(
        server: server, silent: silent, harness: harness, recorder: recorder, system: system, client: client, url: url)
    }

    func close() async {
      await client.close()
      await silent.close()
      await server.stop()
    }
  }

  static let edited = PagedSearch.State(query: "edited", results: ["hand-written"], loadingPage: nil, nextPage: 2)

  @Test(
    "every action of the page, from the page, taking effect in the app: jump, send, edit, both playbacks, fixtures, save and open",
    .enabled(if: HeadlessChromium.isAvailable, "needs chromium: Scripts/install-chromium"),
    .timeLimit(.minutes(3)))
  func pageDrivesTheApp() async throws {
    let scenario = try await LiveScenario.start()
    let (harness, recorder, system, client) = (scenario.harness, scenario.recorder, scenario.system, scenario.client)
    let loadingPageTwo = try #require(recorder.moment(3)?.state)
    #expect(loadingPageTwo.loadingPage == 2)
    let dom: String
    do {
      dom = try await HeadlessChromium.dumpDOM(
        scenario.url, screenshot: ProcessInfo.processInfo.environment["MONITOR_SCREENSHOT"],
        timeLimit: .seconds(120))
    } catch {
      await scenario.close()
      throw error
    }
    let text = try #require(HeadlessChromium.text(ofElement: "selftest", in: dom), "no #selftest in the DOM")
    let report = try JSONDecoder().decode(SelfTest.self, from: Data(text.utf8))
    #expect(report.phase == "done", "stopped in \(report.stoppedIn ?? "-")")
    let states = recorder.moments.map(\.state)
    let events = recorder.moments.map(\.event)

    // The timeline: five moments, with their events and sources.
    let timeline = try #require(report.timeline)
    #expect(timeline.count == 5)
    #expect(timeline.first == "start")
    #expect(timeline.dropFirst().first == #".search("swift")"#)
    #expect(timeline.dropFirst(2).first?.hasPrefix(".loaded") == true)
    #expect(timeline.dropFirst(3).first == ".loadNextPage")
    #expect(timeline.dropFirst(4).first?.contains("swift-2-1") == true)
    #expect(report.sources?[1] == "from external")
    #expect(report.sources?[2] == "from effect 1 of request")

    // The diagram, drawn: every state a node, every transition an edge with its label.
    let diagram = try #require(report.diagram)
    #expect(diagram.nodes.sorted() == ["Failed", "Idle", "Loaded", "Loading", "LoadingMore", "Offline"])
    #expect(diagram.edges == 8)
    #expect(
      diagram.labels.sorted()
        == ["failed", "loadNextPage", "loaded", "loaded", "refresh", "retry", "search", "search"].sorted())
    #expect(dom.contains("unreachable: Offline"))

    // A diff by structure: moment 4 appended page 2's two results (two added
    // elements; page 1's are not shown as removed and added again), ended the
    // loading and moved the next page on.
    let diffAt = try #require(report.diffAt)
    #expect(diffAt.moment == "#4")
    #expect(diffAt.added == ["+ nextPage: 3", #"+ results[2]: "swift-2-0""#, #"+ results[3]: "swift-2-1""#])
    #expect(diffAt.removed == ["− nextPage: 2", "− loadingPage: 2"])
    // Inside arrays: a changed element is diffed field by field, an appended one is one line.
    #expect(
      report.diffNested == [
        #"− items[1].name: "y""#, #"+ items[1].name: "z""#, #"+ items[2]: {"id":3,"name":"w"}"#,
        #"+ tags[2]: "c""#, "+ extra: true",
      ])
    // Moment 3, loading page 2: its request is in flight there.
    #expect(report.effectsAtJump?.contains { $0.hasPrefix("request #") } == true)

    // 1. The jump, as the page saw it come back: a travel moment whose state is moment 3's.
    let travel = try #require(report.travel)
    #expect(travel.moment == "#5")
    #expect(travel.rows == 1)
    #expect(travel.state == loadingPageTwo)
    #expect(travel.diff.contains { $0.hasPrefix("−") && $0.contains("swift-2-1") })
    #expect(travel.effects.contains { $0.hasPrefix("request #") })
    // In the app: through the reducer as the library's time-travel event; the request restarted.
    #expect(events[5]?.travelDestination == loadingPageTwo)
    #expect(recorder.moment(5)?.effects.map(\.kind) == [.started])

    // 2. An event sent from the page's editor: the app reduced it, cancelled
    // page 2's request and started the new search's.
    let rust = PagedSearch.State(query: "rust", results: [], loadingPage: 1, nextPage: nil)
    #expect(report.sent?.moment == "#6")
    #expect(events[6] == .search("rust"))
    #expect(states[6] == rust)
    #expect(recorder.moment(6)?.effects.map(\.kind) == [.cancelled, .started])

    // 3. The state edited as text and applied: a jump to exactly that state,
    // and the request the old state needed cancelled.
    #expect(report.applied?.moment == "#7")
    #expect(report.applied?.state == Self.edited)
    #expect(report.applied?.editorStillEdited == false)
    #expect(events[7]?.travelDestination == Self.edited)
    #expect(states[7] == Self.edited)
    #expect(recorder.moment(7)?.effects.map(\.kind) == [.cancelled])

    // 4a. Play the recorded events from moment 2: a jump to moment 2's state,
    // then the events sent from outside after it (moments 3 and 6; jumps
    // excepted), reduced again: the app recomputes the same states. Moment 4,
    // the request's answer, is not sent: the request the replayed moment 3
    // needs runs again and answers itself.
    #expect(report.playedEvents?.map(\.moment) == ["#8", "#9", "#10"])
    #expect(events[8]?.travelDestination == states[2])
    #expect(Array(events[9...10]) == [events[3], events[6]])
    #expect(Array(states[8...10]) == [states[2], states[3], states[6]])
    #expect(report.playedEvents?.map(\.state) == Array(states[8...10]))
    #expect(recorder.moment(9)?.effects.map(\.kind) == [.started])
    #expect(recorder.moment(10)?.effects.map(\.kind) == [.cancelled, .started])
    // 4b. Play the recorded states from moment 9: the app is set to each in turn.
    #expect(report.playedStates?.map(\.moment) == ["#11", "#12"])
    #expect(events[11...12].map { $0?.travelDestination } == states[9...10].map { Optional($0) })
    #expect(Array(states[11...12]) == Array(states[9...10]))
    #expect(system.state == rust)
    // The last state set needs rust's first page: its request runs and answers.
    harness.clock.advance(by: .seconds(1))
    #expect(system.state.results == ["rust-1-0", "rust-1-1"])

    // Bad input from the page: not JSON stays in the page; an event and a state
    // the app cannot decode are rejected by the app, with the reason shown,
    // and change nothing.
    let rejected = try #require(report.rejected)
    #expect(rejected.moments == 0)
    #expect(rejected.messages.contains { $0.hasPrefix("the event is not JSON") })
    #expect(rejected.messages.contains { $0.hasPrefix("search: the event does not decode") })
    #expect(rejected.messages.contains { $0.hasPrefix("search: the state does not decode") })
    #expect(client.rejectedCommands.count == 2)
    #expect(states.count == 13)

    // 5. Fixtures from moments 2 and 4, each a given / when / then that the
    // app's reducer satisfies. No module named: the test goes into the
    // module of the types, this one.
    let fixtures = try #require(report.fixtures)
    #expect(report.fixtureDownload == "RecordedsearchTests.swift")
    #expect(!fixtures.contains("@testable"))
    // The exported file is kept in this test target (Generated/), so the
    // build compiles it and the test run runs its tests: it must be what the
    // page exports now.
    let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Generated").appendingPathComponent("RecordedsearchTests.swift")
    if ProcessInfo.processInfo.environment["FEEDBACKLOOP_REGENERATE_FIXTURES"] != nil {
      try fixtures.write(to: golden, atomically: true, encoding: .utf8)
    }
    if let difference = firstDifference(try String(contentsOf: golden, encoding: .utf8), fixtures) {
      Issue.record(
        """
        Generated/RecordedsearchTests.swift is not what the page exports now; first difference, \(difference)
        If the change is meant, regenerate it with `FEEDBACKLOOP_REGENERATE_FIXTURES=1 swift test \
        --package-path Monitor --filter pageDrivesTheApp` (needs chromium), review the diff and commit it.
        """)
    }
    #expect(fixtures.contains("func moment2()") && fixtures.contains("func moment4()"))
    #expect(fixtures.contains(#"@Test("moment 2: {\"loaded\":{\"page\":1,"#))
    #expect(fixtures.contains("TransitionAssertions(PagedSearch.reduce)"))
    let literals = try fixtureLiterals(fixtures)
    #expect(literals.count == 2)
    for (given, when, then) in literals {
      var state = try JSONDecoder().decode(PagedSearch.State.self, from: Data(given.utf8))
      PagedSearch.reduce(&state, try JSONDecoder().decode(PagedSearch.Event.self, from: Data(when.utf8)))
      #expect(state == (try JSONDecoder().decode(PagedSearch.State.self, from: Data(then.utf8))))
    }
    #expect(
      literals.map { try? JSONDecoder().decode(PagedSearch.State.self, from: Data($0.2.utf8)) } == [
        states[2], states[4],
      ])

    // 6. The session saved, holding every moment the app recorded, and opened again.
    let saved = try #require(report.saved)
    #expect(saved.name == "search.session.jsonl")
    let savedStates = saved.text.split(separator: "\n").compactMap { line -> PagedSearch.State? in
      guard let message = try? JSONDecoder().decode(PageMessage.self, from: Data(line.utf8)),
        let inspection = message.message, inspection.kind == .started || inspection.kind == .reduced
      else { return nil }
      return try? inspection.state?.decode(PagedSearch.State.self)
    }
    #expect(savedStates == Array(states[0...12]))
    let opened = try #require(report.opened)
    #expect(opened.system == "search.session.jsonl")
    #expect(opened.systems == ["search", "search.session.jsonl"])
    #expect(opened.status.contains("not connected"))
    #expect(opened.moments.map(\.state) == Array(states[0...12]))
    #expect(opened.moments.map(\.moment) == (0...12).map { "#\($0)" })
    #expect(opened.messages == rejected.messages)

    await scenario.close()
  }

  /// Chromium's start-up, many times over (`MONITOR_LAUNCHES=N`, off by
  /// default: it takes N times the test above): every launch must run the
  /// whole self-test, with no retry. Prints each launch's time.
  @Test(
    "every launch of headless Chromium runs the page's self-test to its end",
    .enabled(if: HeadlessChromium.isAvailable && ProcessInfo.processInfo.environment["MONITOR_LAUNCHES"] != nil),
    .timeLimit(.minutes(30)))
  func everyLaunchFinishes() async throws {
    let launches = Int(ProcessInfo.processInfo.environment["MONITOR_LAUNCHES"] ?? "") ?? 20
    var failures: [String] = []
    for launch in 1...launches {
      let scenario = try await LiveScenario.start()
      let began = ContinuousClock.now
      do {
        let dom = try await HeadlessChromium.dumpDOM(scenario.url, timeLimit: .seconds(60))
        let report = HeadlessChromium.text(ofElement: "selftest", in: dom)
          .flatMap { try? JSONDecoder().decode(SelfTest.self, from: Data($0.utf8)) }
        if report?.phase != "done" {
          failures.append("launch \(launch): \(report?.phase ?? "no report") in \(report?.stoppedIn ?? "-")")
        }
      } catch {
        failures.append("launch \(launch): \(error)")
      }
      print("launch \(launch): \(ContinuousClock.now - began)")
      await scenario.close()
    }
    #expect(failures == [])
  }

  /// The first line where a committed file and the text written now differ.
  func firstDifference(_ committed: String, _ written: String) -> String? {
    let old = committed.split(separator: "\n", omittingEmptySubsequences: false)
    let new = written.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(old.count, new.count) {
      let before = index < old.count ? String(old[index]) : "(end of file)"
      let after = index < new.count ? String(new[index]) : "(end of file)"
      if before != after { return "line \(index + 1):\n  committed: \(before)\n  written:   \(after)" }
    }
    return nil
  }

  /// The given, when and then JSON of each test a FixtureTestWriter wrote.
  func fixtureLiterals(_ source: String) throws -> [(String, String, String)] {
    let literals = source.split(separator: "\n").filter { $0.contains("try decode(") }.map { line -> String in
      let start = line.range(of: "#\"")!.upperBound
      let end = line.range(of: "\"#", options: .backwards)!.lowerBound
      return String(line[start..<end])
    }
    return stride(from: 0, to: literals.count - 2, by: 3).map { (literals[$0], literals[$0 + 1], literals[$0 + 2]) }
  }
}
