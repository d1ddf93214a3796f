import ExampleRunner
import Testing

@Suite("The examples command")
struct LauncherTests {
  @Test func withNoNameItListsTheExamplesOneLineEach() async throws {
    let (console, transcript) = Console.capturing()
    let (errors, _) = Console.capturing()
    try await Launcher.run(nil, in: ExampleSession(console: console), errors: errors)
    for name in ["counter", "search", "player", "volume", "sign-in", "player-chart", "app", "durable-downloads"] {
      #expect(transcript.lines.filter { $0.hasPrefix("  \(name) ") }.count == 1, "\(name)")
    }
    #expect(
      Examples.all.map(\.name) == [
        "counter", "search", "player", "volume", "sign-in", "player-chart", "cycle-counter", "animated-integer",
        "app", "durable-downloads",
      ])
  }

  @Test func anUnknownNameListsTheKnownOnesAndFails() async throws {
    let (console, transcript) = Console.capturing()
    let (errors, errorTranscript) = Console.capturing()
    await #expect(throws: Launcher.Failure.unknownExample("paging")) {
      try await Launcher.run("paging", in: ExampleSession(console: console), errors: errors)
    }
    #expect(transcript.contents.isEmpty)
    #expect(errorTranscript.lines.first == "error: there is no example called \"paging\". The examples are:")
    #expect(errorTranscript.lines.count == 1 + Examples.all.count)
  }

  @Test func namesIgnoreCase() {
    #expect(Examples.named("Sign-In")?.name == "sign-in")
    #expect(Examples.named("sign in") == nil)
  }
}
