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

  static let generatedFolder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("Generated")

  static let writer = FixtureTestWriter(
    suite: "RecordedPagedSearchTests", module: nil, stateType: "PagedSearch.State", eventType: "PagedSearch.Event",
    reducer: "PagedSearch.reduce", reducerStyle: .inPlace,
    note: """
      The paged search's scripted session (GeneratedFixtureGoldenTests.scriptedSession),
      kept as a golden file. Do not edit: regenerate with
      \(regenerate)
      """)

  static let hostileTextWriter = FixtureTestWriter(
    suite: "RecordedHostileTextTests", module: nil, stateType: "HostileText.State", eventType: "String",
    reducer: "HostileText.reduce", reducerStyle: .inPlace,
    note: """
      Texts that raw string literals must take care with (HostileText.session),
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
    try Self.checkCommitted("RecordedPagedSearchTests.swift", is: Self.writer.source(for: fixtures))
  }

  @Test("the committed generated test of texts with \\#, \"# and control characters is what the writer writes today")
  func committedHostileTextTestIsCurrent() throws {
    let fixtures = Fixture.from(HostileText.session())
    #expect(fixtures.count == HostileText.samples.count)
    try Self.checkCommitted("RecordedHostileTextTests.swift", is: Self.hostileTextWriter.source(for: fixtures))
  }

  /// Records an issue naming the first difference when the committed file
  /// `name` is not `expected`; writes it first when asked to regenerate.
  static func checkCommitted(_ name: String, is expected: String) throws {
    let file = generatedFolder.appendingPathComponent(name)
    if ProcessInfo.processInfo.environment["FEEDBACKLOOP_REGENERATE_FIXTURES"] != nil {
      try expected.write(to: file, atomically: true, encoding: .utf8)
    }
    let committed = try String(contentsOf: file, encoding: .utf8)
    if let difference = firstDifference(committed, expected) {
      Issue.record(
        """
        \(name) is not what FixtureTestWriter writes from its session now; first difference, \(difference)
        If the change is meant, regenerate it with `\(regenerate)`, review the diff and commit it.
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

  @Test("the generated texts with \\#, \"# and control characters compile, and decode to the texts recorded")
  func generatedHostileTextSuiteIsCompiledHere() throws {
    // Each moment's test fails if its literal changed a text (`\#t` read as
    // a tab, say): the reducer then meets a text that is not a sample.
    let suite = RecordedHostileTextTests()
    try suite.moment1()
    try suite.moment2()
    try suite.moment3()
    try suite.moment10()
    try suite.moment12()
  }
}
