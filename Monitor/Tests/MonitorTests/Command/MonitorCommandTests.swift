import FeedbackLoop
import FeedbackLoopDebugging
import Foundation
import Testing

@testable import FeedbackLoopMonitorClient
@testable import MonitorServer

/// `feedbackloop-monitor` as a user runs it: the executable itself, its
/// output sent to files, as a script or a log file has it.
// Serialized: a process started while another starts may inherit its pipes, and hold them open.
@Suite(.serialized, .enabled(if: MonitorProcess.isAvailable, "needs the executable: swift build --build-tests"))
struct MonitorCommandTests {
  /// What `--info-file` holds.
  struct Info: Decodable {
    var page: String
    var secret: String
    var host: String
    var pagePort: Int
    var appPort: Int
  }

  static func scratchFile(_ name: String) -> String {
    FileManager.default.temporaryDirectory.appendingPathComponent("monitor-\(UUID().uuidString)-\(name)").path
  }

  @Test(
    "its output sent to a file, the monitor prints the page's address and the secret at once, and writes them to --info-file"
  )
  func printsTheAddressAtOnce() async throws {
    let infoFile = Self.scratchFile("info.json")
    let monitor = try MonitorProcess(["--port", "0", "--app-port", "0", "--info-file", infoFile])
    // Read while it runs: nothing is printed at its end, which a buffered output would wait for.
    let page = try #require(
      await monitor.line { $0.hasPrefix("page:") }, "no page line; it printed: \(monitor.standardOutput)")
    let applications = try #require(await monitor.line { $0.hasPrefix("applications:") })
    let secret = try #require(page.split(separator: "?secret=").last.map(String.init))
    #expect(secret.count == 32)
    #expect(applications.contains("secret: \"\(secret)\""))

    let info = try JSONDecoder().decode(Info.self, from: Data(contentsOf: URL(fileURLWithPath: infoFile)))
    #expect(info.secret == secret)
    #expect(page == "page:         \(info.page)")
    #expect(info.page == "http://127.0.0.1:\(info.pagePort)/?secret=\(secret)")
    #expect(info.host == "127.0.0.1")
    #expect(applications.contains("port: \(info.appPort),"))
    // Readable by its owner only: it holds the secret.
    let permissions = try FileManager.default.attributesOfItem(atPath: infoFile)[.posixPermissions] as? Int
    #expect(permissions == 0o600)

    // What it printed is what it serves: an application connects with it.
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>(system: "search", clock: harness.clock)
    let system = harness.search(recorder: recorder)
    let link = try await MonitorClient.connect(
      port: info.appPort, secret: info.secret, system: system, recorder: recorder)
    await link.close()
    system.stop()

    // Stopped as a service manager stops it: the file that names its secret goes with it.
    monitor.terminate()
    #expect(await monitor.exitStatus() == 128 + SIGTERM)
    #expect(!FileManager.default.fileExists(atPath: infoFile))
    #expect(!monitor.standardError.contains("Fatal error"))
  }

  /// Runs the monitor with `arguments` until it exits.
  static func run(_ arguments: [String]) async throws -> (status: Int32, errors: String) {
    let monitor = try MonitorProcess(arguments, timeLimit: .seconds(30))
    let status = await monitor.exitStatus()
    return (status, monitor.standardError)
  }

  /// No crash, no backtrace: one line that says what is wrong.
  static func expectNoCrash(_ errors: String, sourceLocation: SourceLocation = #_sourceLocation) {
    for crash in ["Fatal error", "Backtrace", "Crash", "Thread 0"] {
      #expect(!errors.contains(crash), "\(errors)", sourceLocation: sourceLocation)
    }
  }

  @Test("a port that is not a number stops the monitor with a usage error naming the option, status 64")
  func portNotANumber() async throws {
    let (status, errors) = try await Self.run(["--port", "abc"])
    #expect(status == 64)
    #expect(errors.contains("'abc'") && errors.contains("--port"), "\(errors)")
    Self.expectNoCrash(errors)
  }

  @Test("an unknown option stops the monitor with a usage error, status 64, instead of being read as a file")
  func unknownOption() async throws {
    let (status, errors) = try await Self.run(["--bogus"])
    #expect(status == 64)
    #expect(errors.contains("Unknown option '--bogus'"), "\(errors)")
    Self.expectNoCrash(errors)
  }

  @Test("a port out of range, an option without its value and a file that does not exist are usage errors, status 64")
  func otherBadArguments() async throws {
    let outOfRange = try await Self.run(["--app-port", "70000"])
    #expect(outOfRange.status == 64)
    #expect(outOfRange.errors.contains("--app-port must be between 0 and 65535, not 70000"), "\(outOfRange.errors)")
    let missing = try await Self.run(["--port"])
    #expect(missing.status == 64)
    #expect(missing.errors.contains("--port"), "\(missing.errors)")
    let noFile = try await Self.run(["--port", "0", "--app-port", "0", "/no/such/timeline.jsonl"])
    #expect(noFile.status == 64)
    #expect(noFile.errors.contains("cannot read /no/such/timeline.jsonl"), "\(noFile.errors)")
    for errors in [outOfRange.errors, missing.errors, noFile.errors] { Self.expectNoCrash(errors) }
  }

  @Test("a busy port stops the monitor with status 1 and an error naming the port and its option")
  func busyPort() async throws {
    let other = MonitorServer()
    let taken = try await other.start()
    defer { Task { await other.stop() } }

    let page = try await Self.run(["--port", "\(taken.page)", "--app-port", "0"])
    #expect(page.status == 1)
    #expect(
      page.errors.contains("cannot listen on 127.0.0.1:\(taken.page) for the page: the port is already in use"),
      "\(page.errors)")
    #expect(page.errors.contains("--port"))
    Self.expectNoCrash(page.errors)

    let app = try await Self.run(["--port", "0", "--app-port", "\(taken.app)"])
    #expect(app.status == 1)
    #expect(
      app.errors.contains("cannot listen on 127.0.0.1:\(taken.app) for applications: the port is already in use"),
      "\(app.errors)")
    #expect(app.errors.contains("--app-port"))
    Self.expectNoCrash(app.errors)
  }

  @Test("--help lists every option")
  func help() async throws {
    let monitor = try MonitorProcess(["--help"])
    #expect(await monitor.exitStatus() == 0)
    for option in [
      "--host", "--port", "--app-port", "--info-file", "<file.jsonl|journal.sqlite>", "--system",
    ] {
      #expect(monitor.standardOutput.contains(option), "\(monitor.standardOutput)")
    }
  }
}
