import FeedbackLoopTesting
import Synchronization

/// Collects the failures a test system reports, so that a test can check
/// them instead of failing.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
final class FailureLog: Sendable {
  private let storage = Mutex<[TestFailure]>([])

  /// A reporter that appends to this log.
  var reporter: TestFailureReporter {
    TestFailureReporter { failure in self.storage.withLock { $0.append(failure) } }
  }

  /// Every failure so far, in order.
  var failures: [TestFailure] { storage.withLock { $0 } }

  /// The kinds of the failures so far, in order.
  var kinds: [TestFailure.Kind] { failures.map(\.kind) }
}
