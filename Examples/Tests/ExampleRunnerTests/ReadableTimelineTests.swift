import FeedbackLoop
import PlayerExample
import Testing

@testable import ExampleRunner

/// What makes a timeline readable: one order for an effect's events and its
/// end, a quiet mode for the player, a volume whose keys say what they did,
/// and Control-C's exit status.
@Suite("Readable timelines")
struct ReadableTimelineTests {
  static func scripted(_ name: String) async throws -> [String] {
    let (console, transcript) = Console.capturing()
    let example = try #require(Examples.named(name))
    try await example.run(in: ExampleSession(console: console))
    return transcript.lines
  }

  static func interactive(_ name: String, keys: [Key]) async throws -> (lines: [String], session: ExampleSession) {
    let (console, transcript) = Console.capturing()
    let (stream, continuation) = AsyncStream<Key>.makeStream()
    for key in keys { continuation.yield(key) }
    continuation.finish()
    let session = ExampleSession(console: console, keys: stream, port: 0, latency: nil)
    let example = try #require(Examples.named(name))
    try await example.run(in: session)
    return (transcript.lines, session)
  }

  @Test(
    "an effect's events are printed before its end, in every scripted example",
    arguments: ["counter", "player", "volume", "sign-in"])
  func eventsBeforeTheEnd(example: String) async throws {
    let lines = try await Self.scripted(example)
    var ends = 0
    for (index, line) in lines.enumerated() {
      guard let range = line.range(of: "✓ finished   ") else { continue }
      ends += 1
      let effect = String(line[range.upperBound...])
      let lastEvent = lines.lastIndex { $0.hasSuffix("from \(effect)") }
      #expect(lastEvent.map { $0 < index } ?? true, "\(effect): its event comes after its end")
    }
    #expect(ends > 0)
  }

  @Test("the player's intro detection: its event, then its end (the loop reports them the other way round)")
  func introDetectionInOrder() async throws {
    let lines = try await Self.scripted("player")
    let event = try #require(lines.firstIndex { $0.hasSuffix("◀ hasIntroStarted(false)   from intro detection #1") })
    let end = try #require(lines.firstIndex { $0.hasSuffix("✓ finished   intro detection #1") })
    #expect(event < end)
  }

  @Test("a quiet timeline hides the player's ticks and timer restarts, and v shows them again")
  func quietTimeline() {
    let (console, _) = Console.capturing()
    let verbosity = Verbosity(quiet: true)
    let printer = TimelinePrinter<Player.State, Player.Event>(
      console: console, now: { .zero }, describeState: PlayerDemo.describe, describeEvent: { "\($0)" },
      verbosity: verbosity, isRoutine: PlayerDemo.isRoutine)
    let state = Player.State()
    #expect(printer.lines(for: .reduced(event: .ticked, from: state, to: state, source: .external)) == nil)
    #expect(
      printer.lines(for: .reduced(event: .secondsLeftChanged(4), from: state, to: state, source: .external)) == nil)
    #expect(
      printer.lines(for: .reduced(event: .secondsLeftChanged(0), from: state, to: state, source: .external)) != nil)
    #expect(printer.lines(for: .reduced(event: .tapped, from: state, to: state, source: .external)) != nil)
    #expect(verbosity.toggle() == false)
    #expect(printer.lines(for: .reduced(event: .ticked, from: state, to: state, source: .external)) != nil)
  }

  @Test("the interactive player starts quiet, and Control-C ends the command with status 130")
  func playerStartsQuietAndControlCIs130() async throws {
    let (lines, session) = try await Self.interactive("player", keys: [.interrupt])
    #expect(lines.contains(Verbosity.notice(quiet: true)))
    #expect(session.interruption.happened)
    #expect(ExamplesCommand.exitStatus(after: session) == 130)
  }

  @Test("q ends an interactive example with status 0")
  func quitIsAnOrdinaryEnd() async throws {
    let (_, session) = try await Self.interactive("counter", keys: [.character("q")])
    #expect(ExamplesCommand.exitStatus(after: session) == nil)
  }

  @Test("each volume key says that the regulator pulled the target back")
  func volumeKeysSayWhatTheyDid() async throws {
    let (lines, _) = try await Self.interactive("volume", keys: [.character("+"), .character("-"), .character("q")])
    #expect(lines.contains("The key turned the volume to 16; the regulator pulled it back to 15, its target, at once."))
    #expect(lines.contains("The key turned the volume to 14; the regulator pulled it back to 15, its target, at once."))
    let scripted = try await Self.scripted("volume")
    #expect(scripted.contains { $0.hasPrefix("The key turned the volume to 14; the regulator pulled it back to 15") })
  }
}
