import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoopDebugging

/// The generated fixture test, proven to compile and pass: the paged
/// search's scripted session is exported as fixtures into
/// `Generated/RecordedPagedSearchTests.swift`, a file of this test target,
/// so the normal build compiles it and the normal test run runs its tests
/// (each `reduce(given, when) == then`, with the testing kit's diff on
/// failure). This test writes it again from the same session and fails when
/// the committed text differs: a change of the writer, of the session or of
/// the reducer's results shows up here as a diff to review.
///
/// Regenerate (then review the diff and commit it):
///
///     FEEDBACKLOOP_REGENERATE_FIXTURES=1 swift test --filter GeneratedFixtureGoldenTests
@Suite(.runsLeftoverJobs) struct GeneratedFixtureGoldenTests {
  static let regenerate = "FEEDBACKLOOP_REGENERATE_FIXTURES=1 swift test --filter GeneratedFixtureGoldenTests"

  static let generatedFile = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Generated").appendingPathComponent("RecordedPagedSearchTests.swift")

  static let writer = FixtureTestWriter(
    suite: "RecordedPagedSearchTests", module: nil, stateType: "PagedSearch.State", eventType: "PagedSearch.Event",
    reducer: "PagedSearch.reduce", reducerStyle: .inPlace,
    note: """
      The paged search's scripted session (GeneratedFixtureGoldenTests.scriptedSession),
      kept as a golden file. Do not edit: regenerate with
      \(regenerate)
      """)

  /// Searches "swift" and loads two pages, searches "rust", asks for the
  /// next page while the first loads (the reducer ignores it) and loads it.
  static func scriptedSession() -> [Moment<PagedSearch.State, PagedSearch.Event>] {
    let harness = Harness()
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>()
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)  // moments 1 to 4
    system.send(.search("rust"))  // 5: a new search drops the results
    system.send(.loadNextPage)  // 6: ignored while page 1 loads
    harness.clock.advance(by: .seconds(1))  // 7: rust's page 1
    system.stop()
    return recorder.moments
  }

  @Test("the committed generated test is what the writer writes today from the paged search's scripted session")
  func committedTestIsCurrent() throws {
    let fixtures = Fixture.from(Self.scriptedSession())
    #expect(fixtures.map(\.sequence) == [1, 2, 3, 4, 5, 6, 7])
    let expected = try Self.writer.source(for: fixtures)
    if ProcessInfo.processInfo.environment["FEEDBACKLOOP_REGENERATE_FIXTURES"] != nil {
      try expected.write(to: Self.generatedFile, atomically: true, encoding: .utf8)
    }
    let committed = try String(contentsOf: Self.generatedFile, encoding: .utf8)
    if let difference = Self.firstDifference(committed, expected) {
      Issue.record(
        """
        \(Self.generatedFile.lastPathComponent) is not what FixtureTestWriter writes from the scripted session now; \
        first difference, \(difference)
        If the change is meant, regenerate it with `\(Self.regenerate)`, review the diff and commit it.
        """)
    }
  }

  @Test("the golden comparison names the first line that differs, or nothing when none does")
  func firstDifferenceIsNamed() {
    #expect(Self.firstDifference("a\nb\nc", "a\nb\nc") == nil)
    #expect(Self.firstDifference("a\nb\nc", "a\nx\nc") == "line 2:\n  committed: b\n  written:   x")
    #expect(Self.firstDifference("a\nb", "a\nb\nc") == "line 3:\n  committed: (end of file)\n  written:   c")
  }

  /// The first line where the committed text and the written one differ.
  static func firstDifference(_ committed: String, _ written: String) -> String? {
    let old = committed.split(separator: "\n", omittingEmptySubsequences: false)
    let new = written.split(separator: "\n", omittingEmptySubsequences: false)
    for index in 0..<max(old.count, new.count) {
      let before = index < old.count ? String(old[index]) : "(end of file)"
      let after = index < new.count ? String(new[index]) : "(end of file)"
      if before != after { return "line \(index + 1):\n  committed: \(before)\n  written:   \(after)" }
    }
    return nil
  }

  @Test("the generated suite is a part of this test target: compiled with it, its tests run with it")
  func generatedSuiteIsCompiledHere() throws {
    // Referring to the generated type makes the build fail if the file is
    // missing or does not compile; calling a test runs its assertion here too.
    let suite = RecordedPagedSearchTests()
    try suite.moment4()
    #expect(String(describing: type(of: suite)) == "RecordedPagedSearchTests")
  }
}
