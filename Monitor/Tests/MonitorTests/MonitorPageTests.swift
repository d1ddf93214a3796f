import FeedbackLoop
import FeedbackLoopDebugging
import Foundation
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

/// The monitor for real: the server started, the paged search connected
/// through the client, and the page loaded in headless Chromium (a plain
/// subprocess, see `HeadlessChromium`), whose self-test scrubs to a moment,
/// reads its diff and effects, and jumps the app there with the page's button.
@Suite(.serialized) struct MonitorPageTests {
  struct SelfTest: Decodable {
    struct Selection: Decodable {
      var moment: String
      var added: [String]
      var removed: [String]
    }

    struct Travel: Decodable {
      var moment: String
      var rows: Int
      var state: PagedSearch.State
      var diff: [String]
      var effects: [String]
    }

    var phase: String
    var timeline: [String]?
    var sources: [String]?
    var diffAt: Selection?
    var effectsAtJump: [String]?
    var travel: Travel?
  }

  @Test(
    "the page shows the timeline and a diff, and a jump from the page travels the app back in time",
    .enabled(if: HeadlessChromium.isAvailable, "needs chromium: Scripts/install-chromium"),
    .timeLimit(.minutes(3)))
  func pageDrivesTheApp() async throws {
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
      port: ports.app, secret: server.secret, system: system, recorder: recorder,
      diagram: "stateDiagram-v2\n  idle --> loading: search\n  loading --> loaded: loaded")
    let loadingPageTwo = try #require(recorder.moment(3)?.state)
    #expect(loadingPageTwo.loadingPage == 2)

    let url =
      "http://127.0.0.1:\(ports.page)/?secret=\(server.secret)&selftest=1&moments=5&diff=4&jump=3"
      + "&hold=http://127.0.0.1:\(silent.port)/"
    let screenshot = ProcessInfo.processInfo.environment["MONITOR_SCREENSHOT"]
    // Chromium sometimes stalls on the loaded shared machine before the page
    // receives anything (3 of 18 launches; its log showed no console line): such
    // a run is killed after 30 seconds and tried again, but only while the app
    // shows that no jump came from it (no moment 5), so a retry never sees a
    // second jump. Any other failure fails the test.
    var dom: String?
    var lastError: (any Error)?
    for _ in 1...3 where dom == nil && recorder.moment(5) == nil {
      do {
        dom = try await HeadlessChromium.dumpDOM(url, screenshot: screenshot, timeLimit: .seconds(30))
      } catch {
        lastError = error
      }
    }
    guard let dom else {
      await client.close()
      await silent.close()
      await server.stop()
      throw lastError ?? HeadlessChromium.Failure(description: "chromium gave no DOM")
    }
    let text = try #require(HeadlessChromium.text(ofElement: "selftest", in: dom), "no #selftest in the DOM")
    let report = try JSONDecoder().decode(SelfTest.self, from: Data(text.utf8))
    #expect(report.phase == "done")

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
    #expect(dom.contains("stateDiagram-v2"))

    // A diff: moment 4 added page 2's results and ended the loading.
    #expect(report.diffAt?.moment == "#4")
    #expect(report.diffAt?.added.contains { $0.contains("swift-2-1") } == true)
    #expect(report.diffAt?.removed.contains { $0.contains("\"loadingPage\": 2") } == true)
    // Moment 3, loading page 2: its request is in flight there.
    #expect(report.effectsAtJump?.contains { $0.hasPrefix("request #") } == true)

    // The jump, as the page saw it come back: a travel moment whose state is moment 3's.
    let travel = try #require(report.travel)
    #expect(travel.moment == "#5")
    #expect(travel.rows == 1)
    #expect(travel.state == loadingPageTwo)
    #expect(travel.diff.contains { $0.contains("swift-2-1") && $0.hasPrefix("−") })
    #expect(travel.effects.contains { $0.hasPrefix("request #") })

    // And in the app: the jump went through the reducer as the library's time-travel
    // event, and the restored state's request started again.
    #expect(system.state == loadingPageTwo)
    let jump = try #require(recorder.moment(5))
    #expect(jump.event?.travelDestination == loadingPageTwo)
    #expect(jump.effects.map(\.kind) == [.started])
    harness.clock.advance(by: .seconds(1))
    #expect(system.state == recorder.moment(4)?.state)

    await client.close()
    await silent.close()
    await server.stop()
  }
}
