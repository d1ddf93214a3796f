import FeedbackLoop
import FeedbackLoopDebugging
import Foundation
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

/// What the page shows when it opens, before anything is clicked, in
/// headless Chromium (see `HeadlessChromium`): the newest moment, and an
/// event box that suggests the app's own event.
@Suite(.serialized) struct PageOpeningTests {
  struct Report: Decodable {
    struct AtOpening: Decodable {
      var moment: String
      var selectedRows: [String]
      var eventPlaceholder: String
    }

    var phase: String
    var stoppedIn: String?
    var atOpening: AtOpening?
  }

  @Test(
    "the page opens on the newest moment, and its event box suggests the app's last event",
    .enabled(if: HeadlessChromium.isAvailable, "needs chromium: Scripts/install-chromium"),
    .timeLimit(.minutes(3)))
  func opensOnTheNewestMoment() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let silent = try await SilentPort.open()
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(system: "search", clock: harness.clock)
    let system = harness.search(recorder: recorder)
    harness.recordTwoPages(system)
    let client = try await MonitorClient.connect(
      port: ports.app, secret: server.secret, system: system, recorder: recorder)
    let url =
      "http://127.0.0.1:\(ports.page)/?secret=\(server.secret)&selftest=1&moments=5&only=opening"
      + "&hold=http://127.0.0.1:\(silent.port)/"
    let dom = try await HeadlessChromium.dumpDOM(
      url, screenshot: ProcessInfo.processInfo.environment["MONITOR_SCREENSHOT_OPENING"], timeLimit: .seconds(120)
    ) {
      await client.close()
      await silent.close()
      await server.stop()
    }
    system.stop()

    let text = try #require(HeadlessChromium.text(ofElement: "selftest", in: dom), "no #selftest in the DOM")
    let report = try JSONDecoder().decode(Report.self, from: Data(text.utf8))
    #expect(report.phase == "done", "stopped in \(report.stoppedIn ?? "-")")
    let opening = try #require(report.atOpening)
    #expect(opening.moment == "#4")
    #expect(opening.selectedRows == ["#4"])
    // Moment 4's event, page 2's answer, as the app encodes it: no other app's event.
    #expect(
      opening.eventPlaceholder
        == #"an event as JSON, like the last one: {"loaded":{"page":2,"results":["swift-2-0","swift-2-1"]}}"#)
  }

  @Test("before an app has sent an event, the event box's hint names no app's event")
  func neutralEventHint() throws {
    let page = try String(contentsOfFile: MonitorServer.pageFolder + "/index.html", encoding: .utf8)
    #expect(page.contains(#"placeholder="an event as JSON, as the app's Event type encodes it""#))
    #expect(!page.contains("loadNextPage"))
  }
}
