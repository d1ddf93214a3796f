import FeedbackLoop
import FeedbackLoopDebugging
import Foundation
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

/// The monitor for real: the server started, the paged search connected
/// through the client, and the page driven in headless Chromium.
@Suite(.serialized) struct MonitorPageTests {
  @Test(
    "the page shows the timeline and a diff, and a jump from the page travels the app back in time",
    .enabled(if: WebDriver.isAvailable, "needs chromium and chromium-driver: Scripts/install-chromium"),
    .disabled("hangs on the shared machine after chromedriver starts; not diagnosed yet (issue 14's report)"))
  func pageDrivesTheApp() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(
      capacity: 1_000, system: "search", clock: harness.clock)
    let system = harness.search(recorder: recorder)
    // Recorded before the app connects: the client sends these first.
    harness.recordTwoPages(system)
    let client = try await MonitorClient.connect(
      port: ports.app, secret: server.secret, system: system, recorder: recorder,
      diagram: "stateDiagram-v2\n  idle --> loading: search\n  loading --> loaded: loaded")
    let browser = try await WebDriver.start()
    do {
      try await browser.open("http://127.0.0.1:\(ports.page)/?secret=\(server.secret)")

      // The timeline: five moments, with their events and sources.
      try await browser.waitUntil(
        "the timeline", "return document.querySelectorAll('#timeline li.moment').length === 5")
      let rows =
        try await browser.run(
          "return [...document.querySelectorAll('#timeline li.moment .event')].map(e => e.textContent)") as? [String]
      #expect(rows?.first == "start")
      #expect(rows?[1] == #".search("swift")"#)
      #expect(rows?[3] == ".loadNextPage")
      let sources =
        try await browser.run(
          "return document.querySelectorAll('#timeline li.moment .source')[2].textContent") as? String
      #expect(sources == "from effect 1 of request")
      #expect(
        try await browser.run("return document.getElementById('diagram').textContent.includes('stateDiagram')")
          as? Bool == true)

      // A diff: moment 4 added page 2's results.
      try await browser.click(#"#timeline li[data-moment="4"]"#)
      try await browser.waitUntil(
        "the diff of moment 4",
        "return [...document.querySelectorAll('#diff .added')].some(l => l.textContent.includes('swift-2-1'))")
      #expect(
        try await browser.run("return document.getElementById('effects').textContent") as? String == "none")

      // Moment 3, loading page 2: its request is in flight there.
      try await browser.click(#"#timeline li[data-moment="3"]"#)
      try await browser.waitUntil(
        "moment 3's request in flight",
        "return document.getElementById('effects').textContent.includes('page: 2')")

      // Time travel from the page: the app goes back to "loading page 2", and its request starts again.
      if let screenshotPath = ProcessInfo.processInfo.environment["MONITOR_SCREENSHOT"] {
        try await browser.click(#"#timeline li[data-moment="4"]"#)
        try await browser.waitUntil("the diff", "return document.querySelectorAll('#diff .added').length > 0")
        try await browser.screenshot().write(to: URL(fileURLWithPath: screenshotPath))
        try await browser.click(#"#timeline li[data-moment="3"]"#)
      }
      try await browser.click("#jump")
      try await waitUntil("the app to jump") { system.state == recorder.moment(3)?.state }
      let jump = try #require(recorder.moments.last)
      #expect(jump.sequence == 5)
      #expect(jump.effects.map(\.kind) == [.started])
      try await browser.waitUntil(
        "the jump on the timeline", "return document.querySelectorAll('#timeline li.moment.travel').length === 1")
      harness.clock.advance(by: .seconds(1))
      #expect(system.state == recorder.moment(4)?.state)
      try await browser.waitUntil(
        "page 2 again", "return document.querySelectorAll('#timeline li.moment').length === 7")

      // Edit the state as text and apply it: a new search for "kotlin", as if typed.
      _ = try await browser.run(
        """
        const editor = document.getElementById('state-editor');
        editor.value = JSON.stringify({query: 'kotlin', results: [], loadingPage: 1});
        editor.dispatchEvent(new Event('input'));
        """)
      try await browser.click("#apply-state")
      try await waitUntil("the edited state") { system.state.query == "kotlin" }
      #expect(recorder.moments.last?.effects.contains { $0.kind == .cancelled || $0.kind == .started } == true)

      // Send an event from the page.
      _ = try await browser.run(
        "document.getElementById('event-editor').value = JSON.stringify({search: {_0: 'rust'}})")
      try await browser.click("#send-event")
      try await waitUntil("the event sent from the page") { system.state.query == "rust" }

      // A malformed command is rejected with a reason; nothing crashes.
      _ = try await browser.run("socket.send('not json at all')")
      try await browser.waitUntil(
        "the rejection", "return document.getElementById('rejections').textContent.includes('not JSON')")
      _ = try await browser.run(
        "document.getElementById('event-editor').value = JSON.stringify({noSuchEvent: {}})")
      try await browser.click("#send-event")
      try await browser.waitUntil(
        "the app's rejection",
        "return document.getElementById('rejections').textContent.includes('the event does not decode')")
      #expect(system.state.query == "rust")

      // Export moment 3 as a fixture: the page asks the monitor for the Swift test.
      try await browser.click(#"#timeline li[data-moment="3"] input.pick"#)
      try await browser.click("#export-fixtures")
      try await browser.waitUntil(
        "the fixture", "return document.getElementById('fixture-output').textContent.includes('func moment3()')")
    } catch {
      await browser.quit()
      await client.close()
      await server.stop()
      throw error
    }
    await browser.quit()
    await client.close()
    await server.stop()
  }

  func waitUntil(_ what: String, _ condition: () -> Bool) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: .seconds(30))
    while !condition() {
      guard clock.now < deadline else { throw WebDriver.Failure(description: "timed out waiting for \(what)") }
      try await Task.sleep(for: .milliseconds(20))
    }
  }
}
