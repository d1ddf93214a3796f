import ExampleRunner
import Testing

/// The two Cycle examples, scripted on a test clock, as a pipe runs them.
@Suite("Scripted Cycle sessions")
struct CycleSessionTests {
  static func lines(of name: String) async throws -> [String] {
    let (console, transcript) = Console.capturing()
    let example = try #require(Examples.named(name))
    try await example.run(in: ExampleSession(console: console))
    return transcript.lines
  }

  @Test func theCycleCounterMeetsItsTwoDriversInOneFrame() async throws {
    let lines = try await Self.lines(of: "cycle-counter")
    #expect(lines.filter { $0.contains("▶ screen: increment") }.count == 2)
    #expect(lines.filter { $0.contains("▶ clock: tick") }.count == 2)
    #expect(lines.contains { $0.contains("screen │ count 2 · 2s (paused)") })
    #expect(lines.last == "The frame is: count 1 · 2s (paused). In a terminal, press + - p yourself.")
  }

  @Test func theAnimatedIntegerInterceptsAppendsAndRemoves() async throws {
    let lines = try await Self.lines(of: "animated-integer")
    #expect(lines.contains { $0.contains("⇒ [2, 3, 2, 1, 0]") })
    #expect(lines.contains { $0.contains("⇒ [1, 0]") })
    #expect(lines.contains { $0.contains("⇒ [1, 2, 3, 2, 1, 0]") })
    #expect(lines.contains { $0.contains("screen │ 3 ███") })
    #expect(lines.last == "The integer is 1. In a terminal, press digits yourself.")
  }

  @Test func aScriptedCycleSessionIsTheSameOnEveryRun() async throws {
    let first = try await Self.lines(of: "animated-integer")
    let second = try await Self.lines(of: "animated-integer")
    #expect(first == second)
  }
}
