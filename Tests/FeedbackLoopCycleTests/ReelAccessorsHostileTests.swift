import Dispatch
import FeedbackLoop
import FeedbackLoopCycle
import Foundation
import Testing

/// Reels read on other threads through every public accessor, while the
/// loop queues, replaces and plays frames and drivers end.
@Suite struct ReelAccessorsHostileTests {
  @Test("G15 reels compared, described and read whole on other threads while animations are replaced")
  func everyAccessorOnOtherThreads() async {
    let keys = (0..<2).map { _ in RecordingDriver<Int, Int>() }
    let router = Router(seed: 0, memory: 2) { _ in
      keys.indices.map { index in
        Wire(
          "k\(index)", driver: keys[index], model: { $0 },
          events: { n, frames in
            // Every other event queues two frames, which the next replaces.
            n.isMultiple(of: 2) ? .frame(frames.last + 1) : .intercept([frames.last + 1, frames.last + 2])
          })
      }
    }
    let app = router.start()
    let (readerEnded, readerEnds) = AsyncStream<Never>.makeStream()
    let stop = Locked(false)
    let problems = Locked<[String]>([])
    // One reader: the machine may have two cores, which two spinning
    // readers would take from the loop and the drivers. It stops by itself
    // at the first reel in which every key ended, so it spins only while
    // the keys write, however long this task then waits for the pool; and
    // on a thread of its own, not one of Dispatch's, on which Swift's tasks
    // run.
    let keyCount = keys.count
    Thread {
      do {
        var last = app.state
        while !stop.withLock({ $0 }) && last.endedDrivers.count < keyCount {
          let reel = app.state
          if reel == last, reel.description != last.description {
            problems.withLock { $0.append("equal, described apart") }
          }
          if reel.queue.first != reel.frame || reel.queue.count != reel.queued.count + 1 {
            problems.withLock { $0.append("queue \(reel.queue) of \(reel)") }
          }
          if reel.isAnimating == reel.queued.isEmpty { problems.withLock { $0.append("isAnimating") } }
          if reel.previous.count > reel.memory { problems.withLock { $0.append("previous") } }
          last = reel
        }
      }
      readerEnds.finish()
    }.start()
    DispatchQueue.concurrentPerform(iterations: keys.count) { index in
      for n in 0..<300 { keys[index].experience(n) }
      keys[index].end()
    }
    for await reel in app.states where reel.endedDrivers.count == keys.count { break }
    stop.withLock { $0 = true }
    // Suspends, instead of blocking a thread of the pool, until the reader ends.
    for await _ in readerEnded {}
    #expect(problems.withLock { $0 }.isEmpty)
    app.stop()
  }
}
