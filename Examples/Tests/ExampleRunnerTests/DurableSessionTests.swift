import DurableDownloadsExample
import FeedbackLoopDebugging
import Foundation
import Testing

@testable import ExampleRunner

/// The durable example's scripted session, as a user runs it: the built
/// `feedbackloop-examples` starts a child process of its own, kills it with
/// SIGKILL after a seeded number of events, starts it again on the same
/// journal, and checks what the two runs stored.
@Suite("The durable example's scripted session", .timeLimit(.minutes(2)))
struct DurableSessionTests {
  /// Runs `feedbackloop-examples durable-downloads --scripted --seed SEED`;
  /// its output lines and exit status.
  static func scriptedSession(seed: UInt64) async throws -> (lines: [String], status: Int32) {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedbackloop-durable-session-\(UUID().uuidString)").path
    try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(atPath: directory) }
    let session = try await Self.run(
      ["durable-downloads", "--scripted", "--seed", String(seed), "--data-directory", directory + "/session"],
      in: directory)
    // The journal the session left, with every state, for the monitor.
    let timeline = try await Self.run(
      [
        "durable-downloads", "--data-directory", directory + "/session", "--timeline", directory + "/timeline.jsonl",
      ], in: directory)
    #expect(timeline.status == 0)
    #expect(timeline.lines.first?.hasPrefix("wrote \(directory)/timeline.jsonl: ") == true, "\(timeline.lines)")
    let file = try TimelineFile<DurableDownloads.State, DurableDownloads.Event>(
      contentsOf: URL(fileURLWithPath: directory + "/timeline.jsonl"))
    #expect(file.problems.isEmpty)
    #expect(file.moments.last?.state.isFinished == true)
    return session
  }

  /// Runs the built `feedbackloop-examples` with `arguments`; its output
  /// lines and exit status.
  static func run(_ arguments: [String], in directory: String) async throws -> (lines: [String], status: Int32) {
    let command = try ChildProcess(
      executable: try executableBesideTests("feedbackloop-examples"),
      arguments: arguments, standardErrorPath: directory + "/stderr.log")
    let watchdog = Task {
      try await Task.sleep(for: .seconds(90))
      command.kill()
    }
    defer { watchdog.cancel() }
    var lines: [String] = []
    for await line in command.outputLines { lines.append(line) }
    let status = await command.waitForExit()
    if status != 0 {
      let errors = (try? String(contentsOfFile: directory + "/stderr.log", encoding: .utf8)) ?? ""
      Issue.record("status \(status); standard error: \(errors.suffix(3_000)); output: \(lines.suffix(20))")
    }
    return (lines, status)
  }

  @Test(
    "G16 killed with SIGKILL, the downloads restart from the journal, resume their requests with their keys, and end in the fold of the stored events",
    arguments: [1, 2] as [UInt64])
  func killedAndRestarted(seed: UInt64) async throws {
    let (lines, status) = try await Self.scriptedSession(seed: seed)
    #expect(status == 0)
    // The seed decides the kill's moment: once the server has served this many chunks of run 1.
    let killAfter = DurableDownloadsDemo.killMoment(seed: seed)
    let firstRun = lines.filter { $0.hasPrefix("  1 │ ") }
    #expect(firstRun.filter { $0.contains(DurableDownloadsDemo.servedMark) }.count == killAfter)
    #expect(lines.contains { $0.hasPrefix("  1 ✝ killed with SIGKILL (pid ") })
    // Run 2 restores what run 1 stored, and says what it resumes.
    let restored = try #require(lines.first { $0.hasPrefix("  2 │ ") && $0.contains("restored at sequence ") })
    #expect(restored.contains("effects resumed: fetch ") || restored.contains("no effect to resume"))
    #expect(lines.contains { $0.hasPrefix("  2 ■ ended: ") && $0.hasSuffix("(all done)") })
    // The check.
    #expect(lines.contains { $0.hasPrefix("  ✓ the final state equals the fold of the ") })
    #expect(lines.contains { $0.hasPrefix("  ✓ no effect key completed twice: ") })
    // The chunk served just before the kill, whose answer the child never
    // got, is asked for again with its key, and answered from the table.
    #expect(lines.contains { $0.hasPrefix("  2 │ ") && $0.contains("was served before: answered from the table") })
    #expect(lines.contains("  ✓ all 13 chunks of the 3 files arrived"))
    #expect(!lines.contains { $0.hasPrefix("  ✗ ") })
  }
}

/// An executable built beside the test binary (the test target depends on
/// its target, so `--build-tests` builds it).
func executableBesideTests(_ name: String) throws -> String {
  let testBinary = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
  var candidates = [Bundle.main.bundleURL, testBinary.deletingLastPathComponent()]
  for bundle in Bundle.allBundles where bundle.bundleURL.pathExtension == "xctest" {
    candidates.append(bundle.bundleURL.deletingLastPathComponent())
  }
  for directory in candidates {
    let candidate = directory.appendingPathComponent(name).path
    if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
  }
  throw ChildProcessFailure(
    "\(name) is not beside the tests (looked in \(candidates.map(\.path))): build with --build-tests")
}
