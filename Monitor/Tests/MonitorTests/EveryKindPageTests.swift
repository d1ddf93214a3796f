import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopCycleDebugging
import FeedbackLoopDebugging
import FeedbackLoopDeclarative
import FeedbackLoopDeclarativeDebugging
import Foundation
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

/// The monitor for real with the kinds of system whose state and event the
/// library makes `Codable`: a Cycle application (its state a `Reel`, its
/// event a `CycleEvent`) and a statechart (a `ChartSnapshot` and a
/// `ChartEvent`), each connected through the client with no code of its own
/// beyond `Codable` types, and driven from the page in headless Chromium:
/// jump, send an event, edit and apply a state, play back events and
/// states, export fixtures. Each action is checked on the app's side too.
@Suite(.serialized) struct EveryKindPageTests {
  /// What the page's self-test saw (see monitor.js), for a system whose
  /// state is `State`.
  struct Report<State: Decodable>: Decodable {
    struct Seen: Decodable {
      var moment: String
      var state: State
      /// The selected row's event, as the timeline shows it.
      var row: String?
    }

    var phase: String
    var stoppedIn: String?
    var timeline: [String]?
    var travel: Seen?
    var sent: Seen?
    var applied: Seen?
    var playedEvents: [Seen]?
    var playedStates: [Seen]?
    var fixtures: String?
  }

  // MARK: A Cycle application

  struct Frame: Codable, Equatable, Sendable {
    var count: Int
  }

  enum Key: Codable, Equatable, Sendable {
    case plus
    case set(Int)
  }

  /// Keys pressed by the test, from outside, as a user's taps would be.
  struct Keys: Driver {
    let stream: AsyncStream<Key>
    var events: AsyncStream<Key> { stream }
    func render(_ model: Int) {}
  }

  static let keys = DriverKey<Key>("keys")

  static func counter(keys: Keys) -> Router<Frame> {
    Router(seed: Frame(count: 0)) { _ in
      [
        Wire(Self.keys, driver: keys, model: \.count) { key, frames in
          switch key {
          case .plus: .frame(Frame(count: frames.current.count + 1))
          case .set(let count): .frame(Frame(count: count))
          }
        }
      ]
    }
  }

  @Test(
    "a Cycle application driven from the page: jump, send, edit, both playbacks, fixtures",
    .enabled(if: HeadlessChromium.isAvailable, "needs chromium: Scripts/install-chromium"),
    .timeLimit(.minutes(3)))
  func cycleApplication() async throws {
    let (stream, continuation) = AsyncStream<Key>.makeStream()
    defer { continuation.finish() }
    let router = Self.counter(keys: Keys(stream: stream))
    let recorder = Recorder<Reel<Frame>, CycleEvent>(system: "counter")
    let app = router.start(monitor: recorder.monitor)
    defer { app.stop() }
    // Moments 1 to 3: three presses, sent from outside.
    for _ in 1...3 { app.send(router.event(Self.keys, .plus)) }
    #expect(app.state.frame == Frame(count: 3))

    let edit = #"{"queue":[{"count":42}]}"#
    let report: Report<Reel<Frame>> = try await Self.drive(
      system: app, recorder: recorder, diagram: router.mermaidDiagram, moments: 4,
      event: router.event(Self.keys, .set(10)), edit: edit, jump: 1, playEvents: 2, playStates: 7, pick: [2, 3],
      screenshot: ProcessInfo.processInfo.environment["MONITOR_SCREENSHOT_CYCLE"])
    #expect(report.phase == "done", "stopped in \(report.stoppedIn ?? "-")")
    let states = recorder.moments.map(\.state)
    let events = recorder.moments.map(\.event)

    // The timeline names the driver and its event, not the event's Swift type.
    #expect(
      report.timeline?.dropFirst().prefix(3).elementsEqual(Array(repeating: ".driver(keys: .plus)", count: 3)) == true,
      "\(report.timeline ?? [])")
    // The jump: moment 4 is a travel to moment 1's reel.
    #expect(report.travel?.moment == "#4")
    #expect(report.travel?.state == states[1])
    #expect(events[4] == .travel(to: states[1]))
    // The event sent from the page's editor, decoded and reduced by the app.
    #expect(report.sent?.moment == "#5")
    #expect(events[5] == router.event(Self.keys, .set(10)))
    #expect(states[5].frame == Frame(count: 10))
    // The state edited as text and applied: a jump to a reel of 42.
    #expect(report.applied?.moment == "#6")
    #expect(states[6].frame == Frame(count: 42))
    #expect(events[6] == .travel(to: states[6]))
    // Play the events from moment 2: a jump to its reel, then the presses and
    // the set sent from outside after it (3 and 5), reduced again.
    #expect(report.playedEvents?.map(\.moment) == ["#7", "#8", "#9"])
    #expect(events[7] == .travel(to: states[2]))
    #expect(Array(events[8...9]) == [events[3], events[5]])
    #expect(states[8...9].map(\.frame) == [Frame(count: 3), Frame(count: 10)])
    // Play the states from moment 7: the app is set to each in turn.
    #expect(report.playedStates?.map(\.moment) == ["#10", "#11", "#12"])
    #expect(Array(states[10...12]) == Array(states[7...9]))
    #expect(app.state.frame == Frame(count: 10))
    // Fixtures of moments 2 and 3: each given / when / then holds through the router's reducer.
    let literals = try Self.fixtureLiterals(try #require(report.fixtures))
    #expect(literals.count == 2)
    for (given, when, then) in literals {
      var state = try JSONDecoder().decode(Reel<Frame>.self, from: Data(given.utf8))
      router.reduce(&state, try JSONDecoder().decode(CycleEvent.self, from: Data(when.utf8)))
      #expect(state == (try JSONDecoder().decode(Reel<Frame>.self, from: Data(then.utf8))))
    }
  }

  // MARK: A statechart

  enum Switch: Codable, Equatable, Sendable {
    case toggle, brighter
  }

  struct Lamp: Codable, Equatable, Sendable {
    var switchedOn = 0
  }

  /// A lamp: `off`, or `on`, a compound state of `dim` and `bright`.
  static func lamp() throws -> Statechart<Lamp, Switch> {
    try Statechart("lamp", initial: "off") {
      ChartState("off") { Transition(on: .toggle, to: "on") }
      ChartState("on", initial: "dim") {
        OnEntry { $0.switchedOn += 1 }
        Transition(on: .toggle, to: "off")
        ChartState("dim") { Transition(on: .brighter, to: "bright") }
        ChartState("bright")
      }
    }
  }

  @Test(
    "a statechart driven from the page: jump, send, edit, both playbacks, fixtures",
    .enabled(if: HeadlessChromium.isAvailable, "needs chromium: Scripts/install-chromium"),
    .timeLimit(.minutes(3)))
  func statechart() async throws {
    let chart = try Self.lamp()
    let recorder = Recorder<ChartSnapshot<Lamp>, ChartEvent<Switch>>(system: "lamp")
    let lamp = chart.start(context: Lamp(), monitor: recorder.monitor)
    defer { lamp.stop() }
    // Moments 1 to 3: on (dim), brighter, off.
    lamp.send(.toggle)
    lamp.send(.brighter)
    lamp.send(.toggle)
    #expect(lamp.state.activeStates == ["lamp", "off"])

    let report: Report<ChartSnapshot<Lamp>> = try await Self.drive(
      system: lamp, recorder: recorder, diagram: chart.diagram.mermaid, moments: 4,
      event: ChartEvent<Switch>.event(.toggle), edit: #"{"context":{"switchedOn":7}}"#, jump: 2, playEvents: 1,
      playStates: 8, pick: [1, 2], screenshot: ProcessInfo.processInfo.environment["MONITOR_SCREENSHOT_STATECHART_APP"])
    #expect(report.phase == "done", "stopped in \(report.stoppedIn ?? "-")")
    let states = recorder.moments.map(\.state)
    let events = recorder.moments.map(\.event)

    // The jump to moment 2 (on, bright). Its row carries the whole
    // snapshot, cut to a few lines in the timeline.
    #expect(report.travel?.moment == "#4")
    #expect(events[4] == .travel(to: states[2]))
    let row = try #require(report.travel?.row)
    #expect(row.count == 120 && row.hasPrefix(".travel{") && row.hasSuffix("…"), "\(row)")
    #expect(states[4].activeStates == states[2].activeStates)
    // The toggle sent from the page: off.
    #expect(report.sent?.moment == "#5")
    #expect(events[5] == .event(.toggle))
    #expect(states[5].activeStates == ["lamp", "off"])
    // The context edited and applied, the active states kept.
    #expect(report.applied?.moment == "#6")
    #expect(states[6].context == Lamp(switchedOn: 7))
    #expect(states[6].activeStates == ["lamp", "off"])
    // Play the events from moment 1: a jump there, then brighter, toggle, toggle.
    #expect(report.playedEvents?.map(\.moment) == ["#7", "#8", "#9", "#10"])
    #expect(events[7] == .travel(to: states[1]))
    #expect(Array(events[8...10]) == [events[2], events[3], events[5]])
    #expect(Array(states[8...9]) == Array(states[2...3]))
    // Play the states from moment 8.
    #expect(report.playedStates?.map(\.moment) == ["#11", "#12", "#13"])
    #expect(Array(states[11...13]) == Array(states[8...10]))
    #expect(lamp.state == states[10])
    // Fixtures of moments 1 and 2 hold through the chart's reducer.
    let literals = try Self.fixtureLiterals(try #require(report.fixtures))
    #expect(literals.count == 2)
    for (given, when, then) in literals {
      var state = try JSONDecoder().decode(ChartSnapshot<Lamp>.self, from: Data(given.utf8))
      chart.reduce(&state, try JSONDecoder().decode(ChartEvent<Switch>.self, from: Data(when.utf8)))
      #expect(state == (try JSONDecoder().decode(ChartSnapshot<Lamp>.self, from: Data(then.utf8))))
    }
  }

  @Test(
    "a Cycle application's diagram: the frame, its driver both ways, and its note wrapped inside the drawing",
    .enabled(if: HeadlessChromium.isAvailable, "needs chromium: Scripts/install-chromium"),
    .timeLimit(.minutes(3)))
  func cycleDiagram() async throws {
    let (stream, continuation) = AsyncStream<Key>.makeStream()
    defer { continuation.finish() }
    let router = Self.counter(keys: Keys(stream: stream))
    let report = try await StatechartDiagramPageTests.pageReport(
      diagram: router.mermaidDiagram,
      screenshot: ProcessInfo.processInfo.environment["MONITOR_SCREENSHOT_CYCLE_DIAGRAM"])
    #expect(report.phase == "done", "stopped in \(report.stoppedIn ?? "-")")
    let drawn = try #require(report.diagram)
    #expect(drawn.nodes.sorted() == ["frame", "keys"])
    #expect(
      drawn.transitions.map { "\($0.from) \($0.label) \($0.to)" }.sorted() == [
        "driver_keys events frame", "frame model driver_keys",
      ])
    // The note, one sentence longer than the two boxes are wide, is cut
    // into lines between words, and every line ends inside the drawing.
    let caption = router.mermaidDiagram.split(separator: "\n").first { $0.contains("%%") }
    let expected = try #require(caption).split(separator: "%%", maxSplits: 1)[1].split(separator: " ")
    #expect(drawn.notes.flatMap { $0.text.split(separator: " ") } == expected)
    #expect(drawn.notes.count > 1)
    for line in drawn.notes {
      #expect(
        line.left >= 0 && line.right <= drawn.width, "\(line.text): \(line.left)...\(line.right) of \(drawn.width)")
    }
  }

  // MARK: The page

  /// Starts the monitor, connects `system`, runs the page's self-test in
  /// headless Chromium (`effects=0`: these systems' moments start no
  /// effect to wait for) and returns what it saw.
  static func drive<State: Codable & Sendable, Event: Codable & AnyStateTravelEvent>(
    system: System<State, Event>, recorder: Recorder<State, Event>, diagram: String, moments: Int,
    event: Event, edit: String, jump: Int, playEvents: Int, playStates: Int, pick: [Int], screenshot: String?
  ) async throws -> Report<State> {
    let server = MonitorServer()
    let ports = try await server.start()
    let silent = try await SilentPort.open()
    let client = try await MonitorClient.connect(
      port: ports.app, secret: server.secret, system: system, recorder: recorder, diagram: diagram)
    func query(_ value: String) -> String {
      value.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? value
    }
    let eventJSON = String(decoding: try JSONEncoder().encode(event), as: UTF8.self)
    let url =
      "http://127.0.0.1:\(ports.page)/?secret=\(server.secret)&selftest=1&effects=0&moments=\(moments)&diff=1"
      + "&jump=\(jump)&event=\(query(eventJSON))&edit=\(query(edit))&playEvents=\(playEvents)"
      + "&playStates=\(playStates)&pick=\(pick.map(String.init).joined(separator: ","))&show=\(jump)"
      + "&hold=http://127.0.0.1:\(silent.port)/"
    let dom = try await HeadlessChromium.dumpDOM(
      url, screenshot: screenshot, timeLimit: .seconds(120)
    ) {
      await client.close()
      await silent.close()
      await server.stop()
    }
    let text = try #require(HeadlessChromium.text(ofElement: "selftest", in: dom), "no #selftest in the DOM")
    return try JSONDecoder().decode(Report<State>.self, from: Data(text.utf8))
  }

  /// The given, when and then JSON of each test a FixtureTestWriter wrote.
  static func fixtureLiterals(_ source: String) throws -> [(String, String, String)] {
    let literals = source.split(separator: "\n").filter { $0.contains("try decode(") }.map { line -> String in
      let start = line.range(of: "#\"")!.upperBound
      let end = line.range(of: "\"#", options: .backwards)!.lowerBound
      return String(line[start..<end])
    }
    return stride(from: 0, to: literals.count - 2, by: 3).map { (literals[$0], literals[$0 + 1], literals[$0 + 2]) }
  }
}
