import ExampleRunner
import Testing

/// The scripted sessions that run on a test clock are the same on every run:
/// their transcripts are checked here line by line where it matters.
@Suite("Scripted sessions")
struct ScriptedSessionTests {
  static func transcript(of name: String) async throws -> Transcript {
    let (console, transcript) = Console.capturing()
    let example = try #require(Examples.named(name))
    try await example.run(in: ExampleSession(console: console))
    return transcript
  }

  @Test func theCounterCountsTheTapsOfItsButtons() async throws {
    let lines = try await Self.transcript(of: "counter").lines
    #expect(lines.contains { $0.contains("Scripted session on a TestClock") })
    #expect(lines.filter { $0.hasSuffix("▶ increment   from plus button") }.count == 5)
    #expect(lines.filter { $0.hasSuffix("▶ decrement   from minus button") }.count == 2)
    #expect(lines.contains("   1.000s  ▶ decrement   from minus button"))
    #expect(lines.contains("The count is 3. In a terminal, press + and - yourself."))
  }

  @Test func theVolumeSettlesOnItsTargetAndComesBackToIt() async throws {
    let lines = try await Self.transcript(of: "volume").lines
    #expect(lines.filter { $0.contains("◀ increase   from increase towards 15") }.count == 6)
    #expect(lines.filter { $0.contains("◀ decrease   from decrease towards 15") }.count == 2)
    #expect(lines.contains("The volume is 15. In a terminal, press + and - yourself."))
  }

  @Test func thePlayerHidesItsHUDCountsDownAndSkipsTheIntro() async throws {
    let lines = try await Self.transcript(of: "player").lines
    // The HUD: shown at 1 s, its timer restarted by the interactions at 2 s
    // and 2.5 s, hidden 3 s after the last one.
    #expect(lines.contains("   5.500s  ◀ hideHUD   from hide the HUD #3"))
    #expect(lines.contains("   2.000s    × cancelled  hide the HUD #1 for 1"))
    // The countdown ends with a seek, and the button hides when it is done.
    #expect(lines.contains { $0.contains("◀ secondsLeftChanged(0)") })
    #expect(lines.contains { $0.contains("◀ didSkipIntro   from seek past the intro #1") })
    #expect(lines.contains { $0.contains("▶ skipIntroTapped") })
    #expect(lines.last?.hasPrefix("The player ends at 1:") == true)
  }

  @Test func theSignInRefreshesItsTokenAndSignsOutWhenTheServerRevokesIt() async throws {
    let lines = try await Self.transcript(of: "sign-in").lines
    #expect(lines.contains { $0.contains("⇒ signed out: wrong user name or password") })
    #expect(lines.contains("  11.500s  ◀ tokenExpired   from token expiry #1"))
    #expect(lines.contains("  12.000s  ◀ refreshed(token-2)   from refresh #1"))
    #expect(lines.contains { $0.contains("◀ refreshFailed(sessionRevoked)") })
    #expect(lines.contains { $0.contains("⇒ signed out: the server revoked the session") })
    #expect(lines.contains { $0.contains("× cancelled  sign in #3") })
  }

  @Test func theComposedAppOpensAndStopsItsChildrenAsItsStateSays() async throws {
    let lines = try await Self.transcript(of: "app").lines
    // A normal run discards no event: nothing for the library to warn about.
    #expect(!lines.contains { $0.contains("- discarded") })
    #expect(
      lines.contains("  Signed out, the app runs no search child (search 0): it opens one when someone signs in."))
    #expect(lines.contains { $0.contains("signed in as ada; search open") })
    #expect(lines.contains { $0.contains("playing Modern Times") })
    // Each effect is named after the feature it belongs to.
    #expect(lines.contains { $0.contains("from downloads #") })
    #expect(lines.contains { $0.contains("from sign-in #") })
    #expect(lines.contains("  children now: sign-in 1, search 0, player 0, downloads 0"))
    #expect(lines.last == "The session ends signed out.")
    #expect(try await Self.transcript(of: "app").lines == lines)
  }

  @Test func aScriptedSessionOnTheTestClockIsTheSameOnEveryRun() async throws {
    let first = try await Self.transcript(of: "player").contents
    let second = try await Self.transcript(of: "player").contents
    #expect(first == second)
  }
}
