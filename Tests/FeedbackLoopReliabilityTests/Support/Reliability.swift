import Foundation
import Testing

/// The parent of every reliability suite.
///
/// `.serialized` runs the suites below one at a time (the trait applies to
/// nested suites too): each of them loads the machine's two cores on its own,
/// and the memory figures of the lifetime and backpressure tests are only
/// meaningful when no other reliability test allocates at the same time.
@Suite("Reliability", .serialized)
enum Reliability {}

/// The sizes of the reliability tests.
///
/// `Scripts/sanitizers` sets `FEEDBACKLOOP_SANITIZER=1`: under ThreadSanitizer
/// and AddressSanitizer every memory access costs several times more, so the
/// tests that count in hundreds of thousands scale down by four (ten for the
/// heaviest memory figure). What they check does not change, only how many
/// times.
enum Scale {
  static let underSanitizer = ProcessInfo.processInfo.environment["FEEDBACKLOOP_SANITIZER"] == "1"

  static func pick(_ full: Int, sanitized: Int) -> Int { underSanitizer ? sanitized : full }

  /// Events each concurrent sender sends (the 100,000).
  static let eventsPerSender = pick(100_000, sanitized: 25_000)
  /// Systems created and released by the lifetime tests (the 10,000).
  static let systems = pick(10_000, sanitized: 2_500)
  /// Random cases each property is checked on (the library draws new seeds each run).
  static let propertyCases = pick(240, sanitized: 120)
  /// Events an effect emits in one burst.
  static let burst = pick(10_000, sanitized: 5_000)
}

/// Prints one figure of the run, for RELIABILITY.md: every line starts with
/// `[reliability]` so that `grep` collects them from the test output.
func reportFigure(_ line: String) {
  print("[reliability] \(line)")
}
