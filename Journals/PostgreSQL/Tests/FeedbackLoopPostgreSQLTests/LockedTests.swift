import Foundation
import Testing

@testable import FeedbackLoopPostgreSQL

@Suite("The journal's lock")
struct LockedTests {
  /// Under ThreadSanitizer (`swift test --sanitize=thread --filter LockedTests`)
  /// this is the test that matters: 4 threads contend for the lock, and the
  /// sanitizer reports the counter's accesses as races unless each holder
  /// hands over to the next through `Locked`'s instrumented acquire and
  /// release (a bare `Mutex` is handed over in uninstrumented code on Linux).
  @Test(
    "4 threads contending for the lock each see the others' writes: every increment counted", .timeLimit(.minutes(1)))
  func contendedHandOver() async {
    let counter = Locked(0)
    let threads = 4
    let rounds = 20_000
    await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
      let finished = Locked(0)
      for _ in 0..<threads {
        Thread.detachNewThread {
          for _ in 0..<rounds { counter.withLock { $0 += 1 } }
          if finished.withLock({
            $0 += 1; return $0
          }) == threads {
            done.resume()
          }
        }
      }
    }
    #expect(counter.withLock { $0 } == threads * rounds)
  }
}
