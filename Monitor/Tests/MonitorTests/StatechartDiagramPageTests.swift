import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopDeclarative
import Foundation
import MonitorProtocol
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

/// A statechart's diagram on the monitor's page: composite states drawn as
/// boxes holding their children, a parallel state's regions separated, each
/// container's initial state marked, a transition from a composite drawn
/// from its box. The app sends the chart's Mermaid (`StatechartDiagram.mermaid`);
/// the page (diagram.js) reads the nesting from it and draws it.
///
/// The connected system is the paged search: a statechart's own system
/// cannot be connected yet (its `StatechartState` is not `Codable` and its
/// `ChartEvent` carries no jump), and the page reads only the diagram's text.
@Suite(.serialized) struct StatechartDiagramPageTests {
  enum Key: Sendable, Equatable {
    case go, play, pause, tap, stop
  }

  /// A player: `loaded` is parallel, its regions `video` and `hud` compound
  /// (`video` with a history state); `stopped` resumes the video's history,
  /// and `ended` is final.
  static func chart() throws -> Statechart<Int, Key> {
    try Statechart("player", initial: "loading") {
      ChartState("loading") { Transition(on: .go, to: "loaded") }
      ParallelState("loaded") {
        ChartState("video", initial: "playing") {
          ChartState("playing") { Transition(on: .pause, to: "paused") }
          ChartState("paused") { Transition(on: .play, to: "playing") }
          HistoryState("resume")
        }
        ChartState("hud", initial: "visible") {
          ChartState("visible") { Transition(after: .seconds(3), to: "hidden") }
          ChartState("hidden") { Transition(on: .tap, to: "visible") }
        }
        Transition(on: .stop, to: "stopped")
      }
      ChartState("stopped") {
        Transition(on: .play, to: "resume")
        Transition(on: .stop, to: "ended")
      }
      FinalState("ended")
    }
  }

  /// The page's message for a connected app whose hello carried `diagram`,
  /// as the monitor's hub relays it to every page.
  static func systemMessage(diagram: String) async throws -> PageMessage {
    let server = MonitorServer()
    let ports = try await server.start()
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(system: "player")
    let system = harness.search(recorder: recorder)
    let client = try await MonitorClient.connect(
      port: ports.app, secret: server.secret, system: system, recorder: recorder, diagram: diagram)
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(30))
    var found: PageMessage?
    while found == nil && clock.now < deadline {
      found = await server.hub.messages.lazy.compactMap { line -> PageMessage? in
        guard case .success(let message) = decodeMonitorLine(PageMessage.self, line), message.type == .system
        else { return nil }
        return message
      }.first
      if found == nil { try await Task.sleep(for: .milliseconds(20)) }
    }
    await client.close()
    await server.stop()
    return try #require(found, "no system message reached the page")
  }

  @Test("the page gets a statechart's hierarchy: composites as blocks, regions split by --, initial children marked")
  func pageGetsTheHierarchy() async throws {
    let message = try await Self.systemMessage(diagram: try Self.chart().diagram.mermaid)
    #expect(message.system == "player")
    #expect(message.live == true)
    #expect(
      message.diagram == """
        stateDiagram-v2
            [*] --> loading
            loading
            state loaded {
                state video {
                    [*] --> playing
                    playing
                    paused
                    state "H" as resume
                }
                --
                state hud {
                    [*] --> visible
                    visible
                    hidden
                }
            }
            stopped
            ended --> [*]
            loading --> loaded: go
            playing --> paused: pause
            paused --> playing: play
            visible --> hidden: after 3.0 seconds
            hidden --> visible: tap
            loaded --> stopped: stop
            stopped --> resume: play
            stopped --> ended: stop

        """)
  }

  struct Report: Decodable {
    struct Composite: Decodable {
      var state: String
      var kind: String
      var label: String?
      var regions: [[String]]
      var initials: [String?]
      var separators: Int
      var descendants: [String]
    }

    struct Transition: Decodable {
      var from: String
      var to: String
      var label: String
      var start: [Double]
    }

    struct Drawn: Decodable {
      var nodes: [String]
      var edges: Int
      var initialStates: [String]
      var finals: [String]
      var boxes: [String: [Double]]
      var composites: [Composite]
      var transitions: [Transition]
    }

    struct Parsed: Decodable {
      struct Container: Decodable {
        var regions: [[String]]
        var initials: [String?]
      }

      var states: [String]
      var parent: [String: String?]
      var composites: [String: Container]
      var root: Container
      var labels: [String: String]
      var finals: [String]
    }

    var phase: String
    var stoppedIn: String?
    var diagram: Drawn?
    var parsedDiagram: Parsed?
  }

  @Test(
    "the page draws a statechart nested: a box per composite around its children, regions apart, initials marked",
    .enabled(if: HeadlessChromium.isAvailable, "needs chromium: Scripts/install-chromium"),
    .timeLimit(.minutes(3)))
  func pageDrawsCompositesNested() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let silent = try await SilentPort.open()
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(capacity: 100, system: "player", clock: harness.clock)
    let system = harness.search(recorder: recorder)
    harness.recordTwoPages(system)
    let client = try await MonitorClient.connect(
      port: ports.app, secret: server.secret, system: system, recorder: recorder,
      diagram: try Self.chart().diagram.mermaid)
    let url =
      "http://127.0.0.1:\(ports.page)/?secret=\(server.secret)&selftest=1&moments=1&diff=0&only=diagram"
      + "&hold=http://127.0.0.1:\(silent.port)/"
    let dom: String
    do {
      dom = try await HeadlessChromium.dumpDOM(
        url, screenshot: ProcessInfo.processInfo.environment["MONITOR_SCREENSHOT_CHART"], timeLimit: .seconds(120))
    } catch {
      await client.close()
      await silent.close()
      await server.stop()
      throw error
    }
    await client.close()
    await silent.close()
    await server.stop()
    let text = try #require(HeadlessChromium.text(ofElement: "selftest", in: dom), "no #selftest in the DOM")
    let report = try JSONDecoder().decode(Report.self, from: Data(text.utf8))
    #expect(report.phase == "done", "stopped in \(report.stoppedIn ?? "-")")

    // What the page read: the tree.
    let parsed = try #require(report.parsedDiagram)
    #expect(parsed.root.regions == [["loading", "loaded", "stopped", "ended"]])
    #expect(parsed.root.initials == ["loading"])
    #expect(parsed.composites["loaded"]?.regions == [["video"], ["hud"]])
    #expect(parsed.composites["video"]?.regions == [["playing", "paused", "resume"]])
    #expect(parsed.composites["video"]?.initials == ["playing"])
    #expect(parsed.composites["hud"]?.initials == ["visible"])
    #expect(parsed.parent["playing"] == "video" && parsed.parent["video"] == "loaded")
    #expect(parsed.parent["loading"] == .some(nil))
    #expect(parsed.labels == ["resume": "H"])
    #expect(parsed.finals == ["ended"])

    // What it drew: an SVG group per composite holding its children's groups.
    let drawn = try #require(report.diagram)
    let composites = Dictionary(uniqueKeysWithValues: drawn.composites.map { ($0.state, $0) })
    #expect(Set(composites.keys) == ["loaded", "video", "hud"])
    let loaded = try #require(composites["loaded"])
    #expect(loaded.kind == "parallel")
    #expect(loaded.label == "loaded")
    #expect(loaded.regions == [["video"], ["hud"]])
    #expect(loaded.separators == 1)
    #expect(Set(loaded.descendants) == ["video", "playing", "paused", "resume", "hud", "visible", "hidden"])
    let video = try #require(composites["video"])
    #expect(video.kind == "compound")
    #expect(video.regions.map(Set.init) == [["playing", "paused", "resume"]])
    #expect(video.initials == ["playing"])
    #expect(video.separators == 0)
    #expect(composites["hud"]?.regions.map(Set.init) == [["visible", "hidden"]])
    #expect(composites["hud"]?.initials == ["visible"])
    // Every atomic state is a node, the history state drawn "H"; the
    // composites are boxes, not nodes.
    #expect(drawn.nodes.sorted() == ["H", "ended", "hidden", "loading", "paused", "playing", "stopped", "visible"])
    #expect(Set(drawn.initialStates) == ["loading", "playing", "visible"])
    #expect(drawn.finals == ["ended"])
    #expect(drawn.edges == 8)

    // Geometry: each box lies inside its parent's; the two regions do not overlap.
    func inside(_ inner: String, _ outer: String) -> Bool {
      guard let a = drawn.boxes[inner], let b = drawn.boxes[outer] else { return false }
      return a[0] > b[0] && a[1] > b[1] && a[0] + a[2] < b[0] + b[2] && a[1] + a[3] < b[1] + b[3]
    }
    for (outer, inner) in [
      ("loaded", "video"), ("loaded", "hud"), ("video", "playing"), ("video", "paused"), ("video", "resume"),
      ("hud", "visible"), ("hud", "hidden"),
    ] {
      #expect(inside(inner, outer), "\(inner) is not drawn inside \(outer)")
    }
    #expect(!inside("loading", "loaded") && !inside("stopped", "loaded"))
    let videoBox = try #require(drawn.boxes["video"]), hudBox = try #require(drawn.boxes["hud"])
    #expect(videoBox[1] + videoBox[3] < hudBox[1] || hudBox[1] + hudBox[3] < videoBox[1])

    // A transition from a composite starts on its box's border.
    let stop = try #require(drawn.transitions.first { $0.from == "loaded" })
    #expect(stop.to == "stopped" && stop.label == "stop")
    let box = try #require(drawn.boxes["loaded"])
    let (x, y) = (stop.start[0], stop.start[1])
    let onVerticalSide =
      (abs(x - box[0]) < 0.5 || abs(x - box[0] - box[2]) < 0.5) && y >= box[1] && y <= box[1] + box[3]
    let onHorizontalSide =
      (abs(y - box[1]) < 0.5 || abs(y - box[1] - box[3]) < 0.5) && x >= box[0] && x <= box[0] + box[2]
    #expect(onVerticalSide || onHorizontalSide, "the stop transition starts at \(stop.start), not on \(box)")
    // A transition into a composite's child ends inside that composite, into the child.
    #expect(drawn.transitions.contains { $0.from == "stopped" && $0.to == "resume" && $0.label == "play" })
  }
}
