import ArgumentParser
import ExampleRunner
import Testing

/// The command's options as a newcomer types them: `--help`, a bad value,
/// `--monitor` and `--secret`.
@Suite("The examples command's options")
struct CommandOptionsTests {
  /// The message the command prints for `arguments`, and its exit code.
  static func failure(_ arguments: [String]) -> (message: String, code: Int32) {
    do {
      _ = try ExamplesCommand.parseAsRoot(arguments)
      return ("", 0)
    } catch {
      return (ExamplesCommand.message(for: error), ExamplesCommand.exitCode(for: error).rawValue)
    }
  }

  @Test func helpListsEveryExample() {
    let help = ExamplesCommand.helpMessage(columns: 400)
    for example in Examples.all {
      #expect(help.contains(example.name), "\(example.name) is not in --help")
    }
  }

  @Test func aNegativeLatencyIsRefusedAsNegativeNotAsAMissingValue() {
    let (message, code) = Self.failure(["search", "--latency", "-5"])
    #expect(message == "--latency must be 0 or more, not -5.")
    #expect(code == 64)
    #expect(Self.failure(["search", "--port", "-1"]).message == "--port must be between 0 and 65535.")
  }

  @Test func theDurableExamplesOptionsAreRefusedForAnotherExample() throws {
    #expect(
      Self.failure(["counter", "--seed", "3"]).message
        == "--seed is an option of the durable-downloads example only; counter does not read it.")
    #expect(Self.failure(["search", "--timeline", "t.jsonl"]).message.hasPrefix("--timeline is an option"))
    #expect(Self.failure(["app", "--data-directory", "/tmp/x"]).message.hasPrefix("--data-directory is an option"))
    let durable = try #require(
      try ExamplesCommand.parseAsRoot(["durable-downloads", "--seed", "3", "--data-directory", "/tmp/x"])
        as? ExamplesCommand)
    #expect(durable.seed == 3)
  }

  @Test func monitorTakesAPortOrHostAndPortWithItsSecret() throws {
    let command = try #require(
      try ExamplesCommand.parseAsRoot(["app", "--monitor", "7071", "--secret", "s"]) as? ExamplesCommand)
    #expect(command.monitor == "7071")
    #expect(MonitorTarget(address: "7071", secret: "s") == MonitorTarget(address: "127.0.0.1:7071", secret: "s"))
    #expect(MonitorTarget(address: "example.org:7071", secret: "s")?.host == "example.org")
    for address in ["", "abc", "70000", "a:b:7071", "host:"] {
      #expect(MonitorTarget(address: address, secret: "s") == nil, "\(address)")
    }
    #expect(
      Self.failure(["app", "--monitor", "7071"]).message
        == "--monitor needs the monitor's --secret, printed when it started.")
    #expect(Self.failure(["app", "--secret", "s"]).message == "--secret goes with --monitor PORT.")
    #expect(
      Self.failure(["app", "--monitor", "x", "--secret", "s"]).message.hasPrefix("--monitor takes PORT or HOST:PORT"))
  }

  @Test func anExampleThatCannotReachTheMonitorSaysWhereItLookedBeforeItRuns() async throws {
    let (console, transcript) = Console.capturing()
    // Port 1: nothing listens there.
    let session = ExampleSession(console: console, monitorTarget: MonitorTarget(address: "1", secret: "s"))
    let example = try #require(Examples.named("counter"))
    do {
      try await example.run(in: session)
      Issue.record("the example ran without its monitor")
    } catch let failure as MonitorStreamFailure {
      #expect(failure.description.hasPrefix("cannot reach a monitor at 127.0.0.1:1"))
    }
    #expect(!transcript.lines.contains { $0.contains("● started") })
  }
}
