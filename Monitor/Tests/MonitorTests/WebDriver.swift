import Foundation
import NIOCore
import NIOPosix

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// Drives Debian's headless Chromium through chromedriver (W3C WebDriver,
/// plain HTTP and JSON), enough for the monitor's page: open a URL, click,
/// run a script, take a screenshot.
final class WebDriver: @unchecked Sendable {
  // Sendable: the properties are set once in `start` and only read after.
  private let driver: Process
  private let base: URL
  private let session: String

  struct Failure: Error, CustomStringConvertible {
    var description: String
  }

  static var isAvailable: Bool {
    FileManager.default.isExecutableFile(atPath: "/usr/bin/chromedriver")
      && FileManager.default.isExecutableFile(atPath: "/usr/bin/chromium")
  }

  static func start() async throws -> WebDriver {
    let port = try await freePort()
    let driver = Process()
    driver.executableURL = URL(fileURLWithPath: "/usr/bin/chromedriver")
    driver.arguments = ["--port=\(port)"]
    let log = FileManager.default.temporaryDirectory.appendingPathComponent("chromedriver-\(port).log")
    FileManager.default.createFile(atPath: log.path, contents: nil)
    let logHandle = try FileHandle(forWritingTo: log)
    driver.standardOutput = logHandle
    driver.standardError = logHandle
    try driver.run()
    let base = URL(string: "http://127.0.0.1:\(port)")!
    // chromedriver takes a moment to listen: ask its status until it answers.
    var ready = false
    var lastError = ""
    for _ in 0..<200 where !ready {
      do {
        _ = try await request(base.appendingPathComponent("status"), method: "GET", body: nil)
        ready = true
      } catch {
        lastError = "\(error)"
      }
      if !ready { try await Task.sleep(for: .milliseconds(50)) }
    }
    guard ready else {
      driver.terminate()
      let output = (try? String(contentsOf: log, encoding: .utf8)) ?? ""
      throw Failure(description: "chromedriver did not start: \(lastError); running: \(driver.isRunning); \(output)")
    }
    let capabilities: [String: Any] = [
      "capabilities": [
        "alwaysMatch": [
          "browserName": "chrome",
          "goog:chromeOptions": [
            "binary": "/usr/bin/chromium",
            "args": [
              "--headless=new", "--no-sandbox", "--disable-gpu", "--disable-dev-shm-usage", "--window-size=1500,950",
            ],
          ],
        ]
      ]
    ]
    let answer = try await request(base.appendingPathComponent("session"), method: "POST", body: capabilities)
    guard let value = answer["value"] as? [String: Any], let session = value["sessionId"] as? String else {
      driver.terminate()
      throw Failure(description: "no WebDriver session: \(answer)")
    }
    return WebDriver(driver: driver, base: base, session: session)
  }

  private init(driver: Process, base: URL, session: String) {
    self.driver = driver
    self.base = base
    self.session = session
  }

  private var sessionURL: URL { base.appendingPathComponent("session").appendingPathComponent(session) }

  func open(_ url: String) async throws {
    _ = try await Self.request(sessionURL.appendingPathComponent("url"), method: "POST", body: ["url": url])
  }

  /// Runs `script` in the page and returns its value.
  func run(_ script: String, _ arguments: [Any] = []) async throws -> Any? {
    let answer = try await Self.request(
      sessionURL.appendingPathComponent("execute/sync"), method: "POST", body: ["script": script, "args": arguments])
    return answer["value"]
  }

  /// Clicks the element that `selector` finds, as a user would.
  func click(_ selector: String) async throws {
    let found = try await Self.request(
      sessionURL.appendingPathComponent("element"), method: "POST",
      body: ["using": "css selector", "value": selector])
    guard let element = found["value"] as? [String: Any],
      let id = element["element-6066-11e4-a52f-4a2ef75a7a9e"] as? String
    else { throw Failure(description: "no element \(selector): \(found)") }
    _ = try await Self.request(
      sessionURL.appendingPathComponent("element/\(id)/click"), method: "POST", body: [String: Any]())
  }

  /// Waits until `script` returns true in the page, or fails after `timeout`.
  func waitUntil(_ what: String, timeout: Duration = .seconds(30), _ script: String) async throws {
    let clock = ContinuousClock()
    let deadline = clock.now.advanced(by: timeout)
    while clock.now < deadline {
      if try await run(script) as? Bool == true { return }
      try await Task.sleep(for: .milliseconds(50))
    }
    throw Failure(description: "timed out waiting for \(what)")
  }

  func screenshot() async throws -> Data {
    let answer = try await Self.request(sessionURL.appendingPathComponent("screenshot"), method: "GET", body: nil)
    guard let encoded = answer["value"] as? String, let data = Data(base64Encoded: encoded) else {
      throw Failure(description: "no screenshot")
    }
    return data
  }

  func quit() async {
    _ = try? await Self.request(sessionURL, method: "DELETE", body: nil)
    driver.terminate()
    driver.waitUntilExit()
  }

  /// One WebDriver call, through curl: swift-corelibs-foundation's
  /// URLSession fails on chromedriver's answers ("Failed writing header").
  private static func request(_ url: URL, method: String, body: Any?) async throws -> [String: Any] {
    let bodyData = try body.map { try JSONSerialization.data(withJSONObject: $0) }
    // curl runs on a thread of its own: blocking the cooperative pool (two
    // threads here) would stall the monitor the browser is talking to.
    let data = try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Data, any Error>) in
      Thread {
        continuation.resume(with: Result { try runCurl(url, method: method, body: bodyData) })
      }.start()
    }
    guard let object = try JSONSerialization.jsonObject(with: data) as? [String: Any] else {
      throw Failure(description: "not a WebDriver answer")
    }
    if let value = object["value"] as? [String: Any], let error = value["error"] as? String {
      throw Failure(description: "\(error): \(value["message"] ?? "")")
    }
    return object
  }

  private static func runCurl(_ url: URL, method: String, body: Data?) throws -> Data {
    let curl = Process()
    curl.executableURL = URL(fileURLWithPath: "/usr/bin/curl")
    var arguments = ["-s", "--max-time", "60", "-X", method, url.absoluteString]
    if let body {
      arguments += ["-H", "Content-Type: application/json", "--data-binary", String(decoding: body, as: UTF8.self)]
    }
    curl.arguments = arguments
    let output = Pipe()
    curl.standardOutput = output
    curl.standardError = FileHandle.nullDevice
    try curl.run()
    let data = output.fileHandleForReading.readDataToEndOfFile()
    curl.waitUntilExit()
    guard curl.terminationStatus == 0 else {
      throw Failure(description: "curl \(method) \(url): \(curl.terminationStatus)")
    }
    return data
  }

  /// A port nobody listens on now (bound then released).
  static func freePort() async throws -> Int {
    let channel = try await ServerBootstrap(group: MultiThreadedEventLoopGroup.singleton)
      .bind(host: "127.0.0.1", port: 0).get()
    let port = channel.localAddress?.port ?? 0
    try await channel.close()
    return port
  }
}
