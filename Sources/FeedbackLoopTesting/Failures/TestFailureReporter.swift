#if canImport(Testing)
  import Testing
#endif
#if canImport(XCTest)
  import XCTest
#endif

/// Where the kit sends the assertions that did not hold.
///
/// ``automatic`` (the default) records each failure where the running test
/// framework shows it: as a Swift Testing issue when a Swift Testing test is
/// running (so `withKnownIssue` catches it), otherwise as an XCTest failure.
/// Either way it points at the assertion's file and line, and carries the
/// system's timeline.
///
/// A reporter of your own receives every ``TestFailure`` instead, which is
/// how the kit's own tests check the messages it prints:
///
/// ```swift
/// let hud = TestSystem(
///   initial: HUD.State(), reduce: HUD.reduce, feedbacks: HUD.feedbacks,
///   reporter: TestFailureReporter { failure in print(failure.kind, failure.message) }
/// )
/// ```
public struct TestFailureReporter: Sendable {
  private let record: @Sendable (TestFailure) -> Void

  /// A reporter that hands every failure to `record`.
  public init(_ record: @escaping @Sendable (TestFailure) -> Void) {
    self.record = record
  }

  /// Reports `failure`.
  public func report(_ failure: TestFailure) {
    record(failure)
  }

  /// Records failures in the test framework that is running: Swift Testing
  /// when `Test.current` is set, XCTest otherwise (where it exists), and
  /// standard error as a last resort.
  public static var automatic: TestFailureReporter {
    TestFailureReporter { failure in recordInRunningFramework(failure) }
  }

  private static func recordInRunningFramework(_ failure: TestFailure) {
    let text = failure.description
    let location = failure.location
    #if canImport(Testing)
      if Test.current != nil {
        Issue.record(
          Comment(rawValue: text),
          sourceLocation: SourceLocation(
            fileID: "\(location.fileID)", filePath: "\(location.filePath)",
            line: Int(location.line), column: Int(location.column)))
        return
      }
    #endif
    #if canImport(XCTest)
      XCTFail(text, file: location.filePath, line: location.line)
    #else
      print("\(location): error: \(text)")
    #endif
  }
}
