import FeedbackLoop
import FeedbackLoopDebugging
import FeedbackLoopDeclarative
import FeedbackLoopMonitorProtocol
import Foundation
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

/// A statechart's diagram on the monitor's page: composite states drawn as
/// boxes holding their children, a parallel state's regions separated, each
/// container's initial state marked, a transition from a composite drawn
/// from its box. The app sends the chart's Mermaid (`StatechartDiagram.mermaid`);
/// the page (diagram.js) reads the nesting from it and draws it.
///
/// The connected system is the paged search, since the page reads only the
/// diagram's text. (A statechart's own system connects too, and is driven
/// from the page in `EveryKindPageTests`.)
@Suite(.serialized) struct StatechartDiagramPageTests {
  enum Key: Sendable, Equatable {
    case loaded, play, pause, tap, introStarted, skip, seekFinished, stop
  }

  struct Context: Sendable, Equatable {
    var secondsLeft = 0
    var interactions = 0
  }

  /// Seed 001's player, as the library's scenarios declare it: `loading`,
  /// then `loaded`, a parallel state of three compound regions (the video,
  /// with a history state; the HUD; the skip-intro countdown, which holds a
  /// compound state and a final one); `loaded` left for `stopped` on
  /// `stop`, from its box.
  static func chart() throws -> Statechart<Context, Key> {
    try Statechart("player", initial: "loading") {
      ChartState("loading") { Transition(on: .loaded, to: "loaded") }
      ParallelState("loaded") {
        Transition(on: .stop, to: "stopped")
        ChartState("video", initial: "playing") {
          ChartState("playing") { Transition(on: .pause, to: "paused") }
          ChartState("paused") { Transition(on: .play, to: "playing") }
          HistoryState("resume")
        }
        ChartState("hud", initial: "hudVisible") {
          ChartState("hudVisible") {
            OnEntry { $0.interactions += 1 }
            Transition(on: .tap, to: "hudHidden")
            Transition(after: .seconds(3), to: "hudHidden")
          }
          ChartState("hudHidden") { Transition(on: .tap, to: "hudVisible") }
        }
        ChartState("skipIntro", initial: "beforeIntro") {
          ChartState("beforeIntro") { Transition(on: .introStarted, to: "countdown") }
          ChartState("countdown", initial: "ticking") {
            OnEntry { $0.secondsLeft = 10 }
            Transition(on: .skip, to: "skipping")
            ChartState("ticking") {
              Transition(after: .seconds(1), to: "ticking", guard: "secondsLeft > 1", { $0.secondsLeft > 1 }) {
                $0.secondsLeft -= 1
              }
              Transition(after: .seconds(1), to: "skipping", action: { $0.secondsLeft = 0 })
            }
          }
          ChartState("skipping") { Transition(on: .seekFinished, to: "introSkipped") }
          FinalState("introSkipped")
        }
      }
      ChartState("stopped") { Transition(on: .play, to: "resume") }
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
                    [*] --> hudVisible
                    hudVisible
                    hudHidden
                }
                --
                state skipIntro {
                    [*] --> beforeIntro
                    beforeIntro
                    state countdown {
                        [*] --> ticking
                        ticking
                    }
                    skipping
                    introSkipped --> [*]
                }
            }
            stopped
            loading --> loaded: loaded
            loaded --> stopped: stop
            playing --> paused: pause
            paused --> playing: play
            hudVisible --> hudHidden: tap
            hudVisible --> hudHidden: after 3.0 seconds
            hudHidden --> hudVisible: tap
            beforeIntro --> countdown: introStarted
            countdown --> skipping: skip
            ticking --> ticking: after 1.0 seconds [secondsLeft > 1]
            ticking --> skipping: after 1.0 seconds
            skipping --> introSkipped: seekFinished
            stopped --> resume: play

        """)
  }

  /// A Mermaid diagram as a person might write it: `busy` and `fetching`
  /// named by transitions at the top before `busy`'s block declares them;
  /// `parsing` and `spinnerOff` named only by transitions inside it; two
  /// states a region.
  static let handWritten = """
    stateDiagram-v2
        [*] --> idle
        idle --> busy: start
        idle --> fetching: retry
        busy --> done: finish
        state busy {
            [*] --> fetching
            fetching --> parsing: fetched
            --
            [*] --> spinner
            spinner --> spinnerOff: tick
        }
        done --> [*]
    """

  struct Report: Decodable {
    struct Composite: Decodable {
      var state: String
      var kind: String
      var label: String?
      var regions: [[String]]
      var initials: [String?]
      var separators: Int
      var regionBorders: Int
      var descendants: [String]
    }

    struct Transition: Decodable {
      var from: String
      var to: String
      var label: String
      var start: [Double]
      var end: [Double]
      /// How long (in pixels) the drawn line runs inside each box it passes over.
      var over: [String: Int]
      /// How often it crosses into or out of each box.
      var crossings: [String: Int]
    }

    /// A line of a note (a `%%` comment) as drawn, with where its text
    /// starts and ends.
    struct Note: Decodable {
      var text: String
      var left: Double
      var right: Double
    }

    struct Drawn: Decodable {
      /// The width of the SVG's view box.
      var width: Double
      var notes: [Note]
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
    var parsedGiven: Parsed?
    var enlarged: Bool?
  }

  /// The page's report on the diagram an app connected with `diagram`
  /// sent, drawn in headless Chromium (the self-test's `only=diagram`).
  static func pageReport(diagram: String, query: String = "", screenshot: String? = nil) async throws -> Report {
    let server = MonitorServer()
    let ports = try await server.start()
    let silent = try await SilentPort.open()
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(capacity: 100, system: "player", clock: harness.clock)
    let system = harness.search(recorder: recorder)
    harness.recordTwoPages(system)
    let client = try await MonitorClient.connect(
      port: ports.app, secret: server.secret, system: system, recorder: recorder, diagram: diagram)
    let url =
      "http://127.0.0.1:\(ports.page)/?secret=\(server.secret)&selftest=1&moments=1&diff=0&only=diagram" + query
      + "&hold=http://127.0.0.1:\(silent.port)/"
    let dom = try await HeadlessChromium.dumpDOM(
      url, screenshot: screenshot, timeLimit: .seconds(120)
    ) {
      await client.close()
      await silent.close()
      await server.stop()
    }
    let text = try #require(HeadlessChromium.text(ofElement: "selftest", in: dom), "no #selftest in the DOM")
    return try JSONDecoder().decode(Report.self, from: Data(text.utf8))
  }

  @Test(
    "the page draws a statechart nested: a box per composite around its children, regions apart, initials marked",
    .enabled(if: HeadlessChromium.isAvailable, "needs chromium: Scripts/install-chromium"),
    .timeLimit(.minutes(3)))
  func pageDrawsCompositesNested() async throws {
    let report = try await Self.pageReport(
      diagram: try Self.chart().diagram.mermaid,
      query: "&enlarge=1&parse=\(Self.handWritten.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? "")",
      screenshot: ProcessInfo.processInfo.environment["MONITOR_SCREENSHOT_CHART"])
    #expect(report.phase == "done", "stopped in \(report.stoppedIn ?? "-")")

    // The "Enlarge" button put the diagram over the page (the screenshot shows it so).
    #expect(report.enlarged == true)

    // What the page read: the tree.
    let parsed = try #require(report.parsedDiagram)
    #expect(parsed.root.regions == [["loading", "loaded", "stopped"]])
    #expect(parsed.root.initials == ["loading"])
    #expect(parsed.composites["loaded"]?.regions == [["video"], ["hud"], ["skipIntro"]])
    #expect(parsed.composites["loaded"]?.initials == [nil, nil, nil])
    #expect(parsed.composites["video"]?.regions == [["playing", "paused", "resume"]])
    #expect(parsed.composites["video"]?.initials == ["playing"])
    #expect(parsed.composites["hud"]?.initials == ["hudVisible"])
    #expect(parsed.composites["skipIntro"]?.regions == [["beforeIntro", "countdown", "skipping", "introSkipped"]])
    #expect(parsed.composites["countdown"]?.regions == [["ticking"]])
    #expect(parsed.composites["countdown"]?.initials == ["ticking"])
    #expect(parsed.parent["ticking"] == "countdown" && parsed.parent["countdown"] == "skipIntro")
    #expect(parsed.parent["playing"] == "video" && parsed.parent["video"] == "loaded")
    #expect(parsed.parent["loading"] == .some(nil))
    #expect(parsed.labels == ["resume": "H"])
    #expect(parsed.finals == ["introSkipped"])

    // Mermaid written by hand, in another order: states named by
    // transitions before their declaration, or only inside a block, or in
    // a region of several states.
    let given = try #require(report.parsedGiven)
    #expect(given.root.regions == [["idle", "busy", "done"]])
    #expect(given.root.initials == ["idle"])
    #expect(given.composites["busy"]?.regions == [["fetching", "parsing"], ["spinner", "spinnerOff"]])
    #expect(given.composites["busy"]?.initials == ["fetching", "spinner"])
    #expect(given.parent["parsing"] == "busy" && given.parent["spinnerOff"] == "busy")
    #expect(given.parent["done"] == .some(nil))
    #expect(given.finals == ["done"])

    // What it drew: an SVG group per composite holding its children's groups.
    let drawn = try #require(report.diagram)
    let composites = Dictionary(uniqueKeysWithValues: drawn.composites.map { ($0.state, $0) })
    #expect(Set(composites.keys) == ["loaded", "video", "hud", "skipIntro", "countdown"])
    let loaded = try #require(composites["loaded"])
    #expect(loaded.kind == "parallel")
    #expect(loaded.label == "loaded")
    #expect(loaded.regions == [["video"], ["hud"], ["skipIntro"]])
    #expect(loaded.separators == 2)
    #expect(
      Set(loaded.descendants) == [
        "video", "playing", "paused", "resume", "hud", "hudVisible", "hudHidden", "skipIntro", "beforeIntro",
        "countdown", "ticking", "skipping", "introSkipped",
      ])
    let video = try #require(composites["video"])
    #expect(video.kind == "compound")
    #expect(video.regions.map(Set.init) == [["playing", "paused", "resume"]])
    #expect(video.initials == ["playing"])
    #expect(video.separators == 0)
    #expect(composites["hud"]?.regions.map(Set.init) == [["hudVisible", "hudHidden"]])
    let skipIntro = try #require(composites["skipIntro"])
    #expect(skipIntro.regions.map(Set.init) == [["beforeIntro", "countdown", "skipping", "introSkipped"]])
    #expect(skipIntro.initials == ["beforeIntro"])
    #expect(composites["countdown"]?.kind == "compound")
    #expect(composites["countdown"]?.regions == [["ticking"]])
    #expect(composites["countdown"]?.descendants == ["ticking"])
    // Every atomic state is a node, the history state drawn "H"; the
    // composites are boxes, not nodes.
    #expect(
      drawn.nodes.sorted() == [
        "H", "beforeIntro", "hudHidden", "hudVisible", "introSkipped", "loading", "paused", "playing", "skipping",
        "stopped", "ticking",
      ])
    #expect(Set(drawn.initialStates) == ["loading", "playing", "hudVisible", "beforeIntro", "ticking"])
    #expect(drawn.finals == ["introSkipped"])
    #expect(drawn.edges == 13)

    // Geometry: each box lies inside its parent's; the two regions do not overlap.
    func inside(_ inner: String, _ outer: String) -> Bool {
      guard let a = drawn.boxes[inner], let b = drawn.boxes[outer] else { return false }
      return a[0] > b[0] && a[1] > b[1] && a[0] + a[2] < b[0] + b[2] && a[1] + a[3] < b[1] + b[3]
    }
    for (outer, inner) in [
      ("loaded", "video"), ("loaded", "hud"), ("loaded", "skipIntro"), ("video", "playing"), ("video", "paused"),
      ("video", "resume"), ("hud", "hudVisible"), ("hud", "hudHidden"), ("skipIntro", "countdown"),
      ("skipIntro", "introSkipped"), ("countdown", "ticking"),
    ] {
      #expect(inside(inner, outer), "\(inner) is not drawn inside \(outer)")
    }
    #expect(!inside("loading", "loaded") && !inside("stopped", "loaded"))
    let regionBoxes = try ["video", "hud", "skipIntro"].map { try #require(drawn.boxes[$0]) }
    for (upper, lower) in zip(regionBoxes, regionBoxes.dropFirst()) {
      #expect(upper[1] + upper[3] < lower[1], "the regions overlap: \(upper), \(lower)")
    }

    // A transition from a composite starts on its box's border, one into a
    // composite ends on its border, one into a state inside a composite on
    // that state's border: every transition goes from border to border.
    func onBorder(_ point: [Double], of state: String) -> Bool {
      guard let box = drawn.boxes[state] else { return false }
      let (x, y) = (point[0], point[1])
      let onVerticalSide =
        (abs(x - box[0]) < 0.5 || abs(x - box[0] - box[2]) < 0.5) && y >= box[1] && y <= box[1] + box[3]
      let onHorizontalSide =
        (abs(y - box[1]) < 0.5 || abs(y - box[1] - box[3]) < 0.5) && x >= box[0] && x <= box[0] + box[2]
      return onVerticalSide || onHorizontalSide
    }
    let stop = try #require(drawn.transitions.first { $0.from == "loaded" })
    #expect(stop.to == "stopped" && stop.label == "stop")
    #expect(onBorder(stop.start, of: "loaded"), "stop starts at \(stop.start), not on loaded's box")
    #expect(drawn.transitions.contains { $0.from == "stopped" && $0.to == "resume" && $0.label == "play" })
    #expect(drawn.transitions.contains { $0.from == "countdown" && $0.to == "skipping" && $0.label == "skip" })
    for transition in drawn.transitions {
      #expect(
        onBorder(transition.start, of: transition.from) && onBorder(transition.end, of: transition.to),
        "\(transition.from) → \(transition.to) is drawn from \(transition.start) to \(transition.end)")
    }
    Self.expectRoutedAroundBoxes(drawn, parent: parsed.parent)
    // `play` goes from `stopped` to the history state inside `loaded`: into `loaded` and `video`, not across them.
    let play = try #require(drawn.transitions.first { $0.from == "stopped" && $0.to == "resume" })
    #expect(play.crossings["loaded"] == 1 && play.crossings["video"] == 1)
  }

  /// A parallel state of one region (its Mermaid is a block with no `--`,
  /// like a compound state's, but with no initial child).
  static func oneRegionChart() throws -> Statechart<Context, Key> {
    try Statechart("single", initial: "idle") {
      ChartState("idle") { Transition(on: .play, to: "working") }
      ParallelState("working") {
        Transition(on: .stop, to: "idle")
        ChartState("only", initial: "first") {
          ChartState("first") { Transition(on: .tap, to: "second") }
          ChartState("second")
        }
      }
    }
  }

  @Test(
    "a parallel state of one region is drawn as parallel: a dashed border round its region",
    .enabled(if: HeadlessChromium.isAvailable, "needs chromium: Scripts/install-chromium"),
    .timeLimit(.minutes(3)))
  func oneRegionParallelState() async throws {
    let mermaid = try Self.oneRegionChart().diagram.mermaid
    #expect(!mermaid.contains("--\n"), "the chart's Mermaid has a region separator:\n\(mermaid)")
    let report = try await Self.pageReport(
      diagram: mermaid, screenshot: ProcessInfo.processInfo.environment["MONITOR_SCREENSHOT_ONE_REGION"])
    #expect(report.phase == "done", "stopped in \(report.stoppedIn ?? "-")")
    let drawn = try #require(report.diagram)
    let composites = Dictionary(uniqueKeysWithValues: drawn.composites.map { ($0.state, $0) })
    #expect(composites["working"]?.kind == "parallel")
    #expect(composites["working"]?.regionBorders == 1)
    #expect(composites["working"]?.regions == [["only"]])
    #expect(composites["only"]?.kind == "compound")
    #expect(composites["only"]?.regionBorders == 0)
    Self.expectRoutedAroundBoxes(drawn, parent: try #require(report.parsedDiagram).parent)
  }

  @Test(
    "a diagram's notes: a sentence wrapped between its words, a word longer than the drawing kept whole, every line inside the view box",
    .enabled(if: HeadlessChromium.isAvailable, "needs chromium: Scripts/install-chromium"),
    .timeLimit(.minutes(3)))
  func notesWrappedInsideTheDrawing() async throws {
    let longWord = "Checkout.PaymentStep.WaitingForTheCardIssuersAnswer.RetryingAfterATimeoutOfTheNetwork"
    let sentence =
      "no way out: the states below have no transition that leaves them, so a system that reaches one stays there"
    let mermaid = """
      stateDiagram-v2
        [*] --> idle
        idle --> busy: start
        busy --> idle: done
        %% unreachable: \(longWord)
        %% \(sentence)
      """
    let report = try await Self.pageReport(
      diagram: mermaid, screenshot: ProcessInfo.processInfo.environment["MONITOR_SCREENSHOT_NOTES"])
    #expect(report.phase == "done", "stopped in \(report.stoppedIn ?? "-")")
    let drawn = try #require(report.diagram)
    let words = drawn.notes.flatMap { $0.text.split(separator: " ") }
    #expect(words == ("unreachable: \(longWord) " + sentence).split(separator: " "))
    #expect(drawn.notes.contains { $0.text == longWord })
    #expect(drawn.notes.count >= 4)
    for line in drawn.notes {
      #expect(
        line.left >= 0 && line.right <= drawn.width, "\(line.text): \(line.left)...\(line.right) of \(drawn.width)")
    }
  }

  /// Every transition keeps off the boxes it has no business in: it passes
  /// over no box but its ends and the boxes holding them; it goes into (or
  /// out of) a box holding one end once, and never leaves a box holding
  /// both; and it enters a box holding an end close to that end: its stretch
  /// inside such a box, outside the next box toward the end, is at most the
  /// nearest way in (the gap between the two boxes) and 60 pixels more.
  static func expectRoutedAroundBoxes(
    _ drawn: Report.Drawn, parent: [String: String?], sourceLocation: SourceLocation = #_sourceLocation
  ) {
    func chain(_ id: String) -> [String] {
      var ids = [id]
      while let up = parent[ids[ids.count - 1]] ?? nil { ids.append(up) }
      return ids
    }
    for transition in drawn.transitions where transition.from != transition.to {
      let name = "\(transition.from) → \(transition.to)"
      let fromChain = chain(transition.from)
      let toChain = chain(transition.to)
      let trespassed = Set(transition.over.keys).subtracting(fromChain + toChain)
      #expect(trespassed.isEmpty, "\(name) passes over \(trespassed.sorted())", sourceLocation: sourceLocation)
      let holdingBoth = Set(fromChain.dropFirst()).intersection(toChain.dropFirst())
      for box in holdingBoth {
        #expect(
          transition.crossings[box] == nil, "\(name) leaves \(box), which holds both", sourceLocation: sourceLocation)
      }
      let holdingOne = Set(fromChain.dropFirst()).symmetricDifference(toChain.dropFirst())
        .subtracting([transition.from, transition.to])
      for holder in holdingOne {
        #expect(
          transition.crossings[holder] == 1,
          "\(name) crosses \(holder)'s border \(transition.crossings[holder] ?? 0) times",
          sourceLocation: sourceLocation)
        let path = fromChain.contains(holder) ? fromChain : toChain
        let inner = path[path.firstIndex(of: holder)! - 1]
        guard let outer = drawn.boxes[holder], let box = drawn.boxes[inner] else {
          Issue.record("\(holder) or \(inner) is not drawn", sourceLocation: sourceLocation)
          continue
        }
        let nearestWayIn = [
          box[0] - outer[0], outer[0] + outer[2] - box[0] - box[2], box[1] - outer[1],
          outer[1] + outer[3] - box[1] - box[3],
        ].min()!
        let stretch = (transition.over[holder] ?? 0) - (transition.over[inner] ?? 0)
        #expect(
          Double(stretch) <= nearestWayIn + 60,
          "\(name) runs \(stretch) px inside \(holder) outside \(inner) (the nearest way in: \(nearestWayIn) px)",
          sourceLocation: sourceLocation)
      }
    }
  }
}
