import FeedbackLoopDurable
import FeedbackLoopSQLite
import Foundation
import Testing

@testable import MonitorServer

/// A SQLite journal opened in the monitor, as the page shows it, in headless
/// Chromium (see `HeadlessChromium`).
@Suite(.serialized) struct JournalPageTests {
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
    "the page shows a journal's stored events as a recorded session, on its last event",
    .enabled(if: HeadlessChromium.isAvailable, "needs chromium: Scripts/install-chromium"),
    .timeLimit(.minutes(3)))
  func pageShowsTheJournal() async throws {
    let (path, folder) = try await Basket.writeJournal()
    defer { try? FileManager.default.removeItem(atPath: folder) }
    let journal = try SQLiteJournal(path: path)
    let session = try await JournalSession.timeline(of: "basket-1", in: journal)
    try journal.close()

    let server = MonitorServer()
    let ports = try await server.start()
    await server.hub.open(session, system: "basket-1")
    let silent = try await SilentPort.open()
    let url =
      "http://127.0.0.1:\(ports.page)/?secret=\(server.secret)&selftest=1&moments=8&only=opening"
      + "&hold=http://127.0.0.1:\(silent.port)/"
    let dom: String
    do {
      dom = try await HeadlessChromium.dumpDOM(
        url, screenshot: ProcessInfo.processInfo.environment["MONITOR_SCREENSHOT_JOURNAL"], timeLimit: .seconds(120))
    } catch {
      await silent.close()
      await server.stop()
      throw error
    }
    await silent.close()
    await server.stop()

    let text = try #require(HeadlessChromium.text(ofElement: "selftest", in: dom), "no #selftest in the DOM")
    let report = try JSONDecoder().decode(Report.self, from: Data(text.utf8))
    #expect(report.phase == "done", "stopped in \(report.stoppedIn ?? "-")")
    let opening = try #require(report.atOpening)
    #expect(opening.moment == "#7")
    #expect(opening.selectedRows == ["#7"])
    // The last stored event, as the app's Codable wrote it.
    #expect(opening.eventPlaceholder == #"an event as JSON, like the last one: {"add":{"_0":"figs"}}"#)
  }
}
