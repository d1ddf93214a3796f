import Foundation
import NIOCore
import NIOPosix

/// Debian's Chromium run as a plain subprocess (`--headless=new`,
/// `--dump-dom`, `--screenshot`): no WebDriver, no DevTools connection. The
/// page under test carries what to do in its URL (the monitor page's
/// `?selftest=`), and writes what it saw into its DOM; it holds its load
/// event (an image from a port that never answers) until it is done, and
/// `--dump-dom` waits for that event.
///
/// No `--virtual-time-budget`: with it, and a request held open so that
/// virtual time would wait for the live messages, 2 of 20 launches on the
/// loaded machine (4 of 20 in an earlier session) hung for good: every
/// process of Chromium asleep, the page's WebSocket connected, and the
/// monitor's first messages unread in the browser's receive queue
/// (`ss -tnp`). Without it, 60 of 60 launches finished (`MONITOR_LAUNCHES`,
/// load 12 to 21).
enum HeadlessChromium {
  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static let executable = "/usr/bin/chromium"

  static var isAvailable: Bool { FileManager.default.isExecutableFile(atPath: executable) }

  /// ``dumpDOM(_:screenshot:timeLimit:)``, then `closing` (the page's
  /// application, its hold port, the monitor), whether the page loaded or
  /// not.
  static func dumpDOM(
    _ url: String, screenshot: String?, timeLimit: Duration, closing: () async -> Void
  ) async throws -> String {
    let dom: String
    do {
      dom = try await dumpDOM(url, screenshot: screenshot, timeLimit: timeLimit)
    } catch {
      await closing()
      throw error
    }
    await closing()
    return dom
  }

  /// Loads `url`, waits for its load event, then dumps the DOM and, if
  /// asked, saves a screenshot. Killed after `timeLimit` of real time,
  /// whatever happens.
  static func dumpDOM(
    _ url: String, screenshot: String? = nil, timeLimit: Duration = .seconds(60)
  ) async throws -> String {
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("chromium-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: scratch, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: scratch) }
    let output = scratch.appendingPathComponent("dom.html")
    _ = FileManager.default.createFile(atPath: output.path, contents: nil)
    let outputHandle = try FileHandle(forWritingTo: output)
    defer { try? outputHandle.close() }

    let chromium = Process()
    chromium.executableURL = URL(fileURLWithPath: executable)
    // A profile of its own: several builders may run Chromium at once.
    chromium.arguments =
      [
        "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--no-first-run",
        "--user-data-dir=\(scratch.appendingPathComponent("profile").path)",
        "--dump-dom",
      ] + (screenshot.map { ["--screenshot=\($0)", "--window-size=1280,900", "--hide-scrollbars"] } ?? []) + [url]
    chromium.standardOutput = outputHandle
    // CHROMIUM_LOG=path keeps Chromium's log, with the page's console, for a failing run.
    if let log = ProcessInfo.processInfo.environment["CHROMIUM_LOG"],
      FileManager.default.createFile(atPath: log, contents: nil), let handle = FileHandle(forWritingAtPath: log)
    {
      chromium.arguments?.insert(contentsOf: ["--enable-logging=stderr", "--v=0"], at: 0)
      chromium.standardError = handle
    } else {
      chromium.standardError = FileHandle.nullDevice
    }
    chromium.standardInput = FileHandle.nullDevice
    try chromium.run()

    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeLimit)
    while chromium.isRunning && clock.now < deadline {
      try? await Task.sleep(for: .milliseconds(50))
    }
    if chromium.isRunning {
      chromium.terminate()
      let grace = clock.now.advanced(by: .seconds(2))
      while chromium.isRunning && clock.now < grace { try? await Task.sleep(for: .milliseconds(50)) }
      if chromium.isRunning { kill(chromium.processIdentifier, SIGKILL) }
      throw Failure(description: "chromium did not finish within \(timeLimit)")
    }
    return String(decoding: try Data(contentsOf: output), as: UTF8.self)
  }

  /// The text of the element `id` in a dumped DOM (its entities decoded).
  static func text(ofElement id: String, in dom: String) -> String? {
    guard let open = dom.range(of: "id=\"\(id)\""),
      let start = dom[open.upperBound...].firstIndex(of: ">"),
      let end = dom[start...].range(of: "</")
    else { return nil }
    return String(dom[dom.index(after: start)..<end.lowerBound])
      .replacingOccurrences(of: "&lt;", with: "<").replacingOccurrences(of: "&gt;", with: ">")
      .replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&nbsp;", with: "\u{a0}")
      .replacingOccurrences(of: "&amp;", with: "&")
  }
}

/// A TCP port that accepts connections and never answers: the page's
/// self-test loads an image from it to hold its load event (see monitor.js).
struct SilentPort {
  let channel: Channel

  static func open() async throws -> SilentPort {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .childChannelInitializer { channel in channel.eventLoop.makeSucceededVoidFuture() }
      .bind(host: "127.0.0.1", port: 0).get()
    return SilentPort(channel: channel)
  }

  var port: Int { channel.localAddress?.port ?? 0 }

  func close() async { try? await channel.close() }
}
