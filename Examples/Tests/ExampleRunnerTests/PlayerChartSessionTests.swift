import ExampleRunner
import Testing

@Suite("The player-chart session")
struct PlayerChartSessionTests {
  @Test func itPrintsItsDiagramHidesTheHUDAndResumesByHistory() async throws {
    let lines = try await ScriptedSessionTests.transcript(of: "player-chart").lines
    #expect(lines.contains("stateDiagram-v2"))
    #expect(lines.contains("    state loaded {"))
    #expect(lines.contains("   3.000s  ◀ timeout(7)   from player.hudVisible.after(3.0 seconds)->hudHidden #1"))
    #expect(lines.contains("           ⇒ paused · hudHidden · introSkipped"))
    #expect(lines.contains("The player ends in paused · hudVisible · beforeIntro."))
  }
}
