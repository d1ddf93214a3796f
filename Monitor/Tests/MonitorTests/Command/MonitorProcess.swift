import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The real `feedbackloop-monitor` executable, run as a user runs it with its
/// output sent to files (not a terminal), read while it runs. Killed after
/// `timeLimit` of real time whatever happens, so that a monitor that never
/// says what a test waits for ends the test with what it did say.
///
/// Files rather than pipes: a pipe's end that another process started at the
/// same moment inherits stays open after the monitor exits, and its reader
/// never sees the end.
final class MonitorProcess: Sendable {
  private let process: Process
  private let outputPath: String
  private let errorPath: String

  /// The executable, built beside this test bundle (`swift build --build-tests` builds it).
  static var executable: URL? {
    var folder = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent()
    for _ in 0..<4 {
      let candidate = folder.appendingPathComponent("feedbackloop-monitor")
      if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
      folder = folder.deletingLastPathComponent()
    }
    return nil
  }

  static var isAvailable: Bool { executable != nil }

  struct NotBuilt: Error, CustomStringConvertible {
    var description: String { "feedbackloop-monitor is not built beside the tests: swift build --build-tests" }
  }

  init(_ arguments: [String], timeLimit: Duration = .seconds(30)) throws {
    guard let executable = Self.executable else { throw NotBuilt() }
    let scratch = FileManager.default.temporaryDirectory.appendingPathComponent("monitor-run-\(UUID().uuidString)")
    outputPath = scratch.path + ".out"
    errorPath = scratch.path + ".err"
    for path in [outputPath, errorPath] { _ = FileManager.default.createFile(atPath: path, contents: nil) }
    let process = Process()
    process.executableURL = executable
    process.arguments = arguments
    process.standardInput = FileHandle.nullDevice
    process.standardOutput = FileHandle(forWritingAtPath: outputPath)
    process.standardError = FileHandle(forWritingAtPath: errorPath)
    try process.run()
    self.process = process
    Task.detached {
      try? await Task.sleep(for: timeLimit)
      if process.isRunning { kill(process.processIdentifier, SIGKILL) }
    }
  }

  deinit {
    try? FileManager.default.removeItem(atPath: outputPath)
    try? FileManager.default.removeItem(atPath: errorPath)
  }

  /// What it wrote to standard output so far.
  var standardOutput: String { (try? String(contentsOfFile: outputPath, encoding: .utf8)) ?? "" }
  /// What it wrote to standard error so far.
  var standardError: String { (try? String(contentsOfFile: errorPath, encoding: .utf8)) ?? "" }

  /// Waits until standard output holds a line that satisfies `found`; nil
  /// when the monitor ends first (it exited, or was killed at its time limit).
  func line(where found: (String) -> Bool) async -> String? {
    while true {
      let running = process.isRunning
      if let line = standardOutput.split(separator: "\n").map(String.init).first(where: found) { return line }
      if !running { return nil }
      try? await Task.sleep(for: .milliseconds(20))
    }
  }

  /// Sends SIGTERM, as `kill` does.
  func terminate() { process.terminate() }

  /// Waits for the process to end (at the latest at its time limit); returns
  /// its status: the exit code, or 128 + the signal that ended it, as a
  /// shell reports it.
  func exitStatus() async -> Int32 {
    while process.isRunning { try? await Task.sleep(for: .milliseconds(20)) }
    return process.terminationReason == .uncaughtSignal ? 128 + process.terminationStatus : process.terminationStatus
  }
}
