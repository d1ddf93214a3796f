import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// Red team: a read of a system's state from code that runs, on the same
  /// thread, inside that system's own reducer, through another system that
  /// the reducer sends to (which drains inline on an idle system: see
  /// `SystemCore.submit`). The reader waits for a reduction that waits for
  /// the reader.
  @Suite("Red team: reads nested in the owner's own reduction")
  struct RedTeamReadNestingTests {
    @Test(
      "G15 red team: a system's reducer sends to another system whose observer reads the first one's state: the read returns",
      .timeLimit(.minutes(1)),
      .disabled(
        "finding: deadlocks; fl_read_begin waits for the outer system's sequence to turn even, but the outer reducer is this thread's caller"
      ))
    func observerOfASystemSentToFromAReducerReadsTheSender() async {
      let seen = Locked<[Int]>([])
      let outer = Locked<System<Int, Int>?>(nil)
      let inner = System<Int, Int>(initial: 0, reduceInPlace: { state, event in state = event })
      let observation = inner.observe { _ in
        if let outer = outer.current { seen.withLock { $0.append(outer.state) } }
      }
      let system = System<Int, Int>(
        initial: 0,
        reduceInPlace: { state, event in
          state += event
          inner.send(event)
        })
      outer.withLock { $0 = system }
      system.send(1)
      #expect(seen.current.count == 1)
      _ = observation
      outer.withLock { $0 = nil }
      system.stop()
      inner.stop()
    }
  }
}
