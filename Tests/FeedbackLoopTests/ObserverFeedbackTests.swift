import FeedbackLoop
import FeedbackLoopTesting
import Foundation
import Testing

/// `Feedback.observer(_:)`: a synchronous observer made per system,
/// what a renderer (FeedbackLoopCycle's skipped render) is built on.
@Suite(.runsLeftoverJobs) struct ObserverFeedbackTests {
  /// What observers saw, per observer, in order.
  final class Sightings: @unchecked Sendable {
    // Sendable: `seen` and `made` are read and written only while `lock` is held.
    private let lock = NSLock()
    private var seen: [[Int]] = []

    /// A new observer's slot.
    func newObserver() -> Int {
      lock.withLock {
        seen.append([])
        return seen.count - 1
      }
    }

    func record(_ state: Int, by observer: Int) { lock.withLock { seen[observer].append(state) } }
    var byObserver: [[Int]] { lock.withLock { seen } }
  }

  static func observer(_ sightings: Sightings) -> Feedback<Int, Int> {
    Feedback.observer(
      name: "observer",
      {
        let slot = sightings.newObserver()
        return { state in sightings.record(state, by: slot) }
      })
  }

  @Test("G3 an observer sees the initial state, then each new state before the next event is reduced")
  func eachStateInOrder() {
    let sightings = Sightings()
    let system = TestSystem(initial: 0, reduce: { $0 += $1 }, feedbacks: [Self.observer(sightings)])
    #expect(sightings.byObserver == [[0]])
    system.send(1) { $0 = 1 }
    #expect(sightings.byObserver == [[0, 1]])
    system.send(2) { $0 = 3 }
    system.send(0)  // an unchanged state is still a new state: the observer decides what to skip
    #expect(sightings.byObserver == [[0, 1, 3, 3]])
    system.finish()
    #expect(sightings.byObserver == [[0, 1, 3, 3]])
  }

  @Test("G9 each system that runs one feedback value gets an observer of its own")
  func observerPerSystem() {
    let sightings = Sightings()
    let feedbacks = [Self.observer(sightings)]
    let first = TestSystem(initial: 0, reduce: { $0 += $1 }, feedbacks: feedbacks)
    let second = TestSystem(initial: 10, reduce: { $0 += $1 }, feedbacks: feedbacks)
    first.send(1) { $0 = 1 }
    second.send(5) { $0 = 15 }
    first.send(1) { $0 = 2 }
    #expect(sightings.byObserver == [[0, 1, 2], [10, 15]])
    first.finish()
    second.finish()
  }

  @Test("G2 events sent from many threads at once: the observer sees every state once, in the order reduced")
  func manyThreads() {
    let sightings = Sightings()
    let system = System(initial: 0, reduce: { $0 += $1 }, feedbacks: [Self.observer(sightings)])
    DispatchQueue.concurrentPerform(iterations: 8) { _ in
      for _ in 0..<100 { system.send(1) }
    }
    system.stop()
    #expect(sightings.byObserver == [Array(0...800)])
  }
}
