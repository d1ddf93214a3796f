#if canImport(XCTest)
  import FeedbackLoop
  import FeedbackLoopTesting
  import XCTest

  /// Under XCTest, the automatic reporter fails the running test case with
  /// XCTFail, at the assertion's file and line. This case records those
  /// failures instead of failing, and checks them.
  final class XCTestReporterTests: XCTestCase {
    private var recorded: [(description: String, file: String, line: Int)] = []

    #if canImport(ObjectiveC)
      override func record(_ issue: XCTIssue) {
        recorded.append(
          (
            issue.compactDescription, issue.sourceCodeContext.location?.fileURL.path ?? "",
            issue.sourceCodeContext.location?.lineNumber ?? 0
          ))
      }
    #else
      override func recordFailure(
        withDescription description: String, inFile filePath: String, atLine lineNumber: Int, expected: Bool
      ) {
        recorded.append((description, filePath, lineNumber))
      }
    #endif

    func test_aFailureIsAnXCTestFailureAtTheAssertion() throws {
      guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else {
        throw XCTSkip("the testing kit needs macOS 15 / iOS 18")
      }
      let hud = TestSystem(initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks)
      let line = #line + 1
      hud.send(.tap)
      hud.skipInFlightEffects()
      hud.finish()

      XCTAssertEqual(recorded.count, 1)
      let failure = try XCTUnwrap(recorded.first)
      XCTAssertEqual(failure.line, line)
      XCTAssertTrue(failure.file.hasSuffix("XCTestReporterTests.swift"), failure.file)
      XCTAssertTrue(
        failure.description.contains("Sending HUD.Event.tap changed the state, but the test asserted no change:"),
        failure.description)
      XCTAssertTrue(failure.description.contains("Timeline (test clock time, what happened):"))
    }

    func test_aPassingTestRecordsNothing() throws {
      guard #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *) else {
        throw XCTSkip("the testing kit needs macOS 15 / iOS 18")
      }
      let hud = TestSystem(initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks)
      hud.send(.tap) {
        $0.isVisible = true
        $0.interactions = 1
      }
      hud.advance(by: .seconds(3))
      hud.receive(.hide) { $0.isVisible = false }
      hud.finish()
      XCTAssertTrue(recorded.isEmpty)
    }
  }
#endif
