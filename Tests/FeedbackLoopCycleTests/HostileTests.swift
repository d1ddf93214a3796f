import Dispatch
import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopTesting
import Foundation
import Testing

/// The router under attack: events from many threads at once, events after
/// stop, and sends from inside a render.
@Suite(.runsLeftoverJobs) struct HostileTests {
  @Test("G2 events of two drivers sent from many threads at once are each reduced once")
  func manyThreads() {
    let left = RecordingDriver<Int, Int>()
    let right = RecordingDriver<Int, Int>()
    let router = Router(seed: 0) { _ in
      [
        Wire("left", driver: left, model: { $0 }, events: { n, frames in .frame(frames.current + n) }),
        Wire("right", driver: right, model: { _ in 0 }, events: { n, frames in .frame(frames.current + n) }),
      ]
    }
    let app = TestSystem(
      initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks, exhaustivity: .off)
    DispatchQueue.concurrentPerform(iterations: 8) { thread in
      for _ in 0..<100 { (thread.isMultiple(of: 2) ? left : right).experience(1) }
    }
    app.skipReceivedEvents()
    #expect(app.state.frame == 800)
    #expect(left.renders.count == 801)  // the seed, then every frame: each changed the left model
    app.finish()
  }

  @Test("G9 one router's feedbacks in two systems at once: each skips against the models it rendered itself")
  func twoSystemsOneRouter() {
    let screen = RecordingDriver<Int, Int>()
    let router = Router(seed: 0) { _ in
      [Wire("screen", driver: screen, model: { $0 / 2 }, events: { n, frames in .frame(frames.current + n) })]
    }
    // The render feedbacks only: a driver's events are iterated by one
    // system (Driver.events); its renders are what each system keeps apart.
    let feedbacks = router.feedbacks.filter { $0.name.hasPrefix("render") }
    let first = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: feedbacks)
    let second = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: feedbacks)
    #expect(screen.renders == [0, 0])  // each system renders its seed
    first.send(.driver("screen", 2)) { $0 = Reel(queue: [2], previous: [0]) }
    first.send(.driver("screen", 1)) { $0 = Reel(queue: [3], previous: [2]) }  // model 1 again: skipped
    second.send(.driver("screen", 3)) { $0 = Reel(queue: [3], previous: [0]) }  // model 1, new to this system
    #expect(screen.renders == [0, 0, 1, 1])
    first.finish()
    second.finish()
  }

  @Test("G1 a reel read before an event keeps its frames: the storage the copies share is copied on write")
  func reelCopyOnWrite() {
    let counter = RecordingDriver<Int, Int>()
    let router = Router(seed: 0, memory: 2) { _ in
      [Wire("counter", driver: counter, model: { $0 }, events: { n, frames in .frame(frames.current + n) })]
    }
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver("counter", 1)) { $0 = Reel(queue: [1], previous: [0], memory: 2) }
    let before = app.state
    app.send(.driver("counter", 1)) { $0 = Reel(queue: [2], previous: [0, 1], memory: 2) }
    counter.end()
    app.receive(.driverEnded("counter")) {
      $0 = Reel(queue: [2], previous: [0, 1], memory: 2, endedDrivers: [DriverEnd(driver: "counter")])
    }
    #expect(before == Reel(queue: [1], previous: [0], memory: 2))
    #expect(before.endedDrivers.isEmpty)
    app.finish()
  }

  @Test("G9 after stop, a driver's events and its end reach nothing")
  func afterStop() {
    let keys = RecordingDriver<Int, Animated.Key>()
    let router = Animated.router(seed: 0, keys: keys)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver(Animated.keys, .animateTo(3))) { $0 = Reel(queue: [0, 1, 2, 3]) }
    app.skipInFlightEffects()  // the animation clock: stopped with the system
    app.finish()
    keys.experience(.animateTo(9))
    keys.end()
    app.executor.runUntilIdle()
    #expect(app.state == Reel(queue: [0, 1, 2, 3]))
    #expect(keys.renders == [0])
  }

  @Test("G2 an event a driver reports from inside its render is reduced after the current frame")
  func sendFromRender() {
    let echo = EchoDriver()
    let router = Router(seed: 0) { _ in
      [Wire("echo", driver: echo, model: { $0 }, events: { n, frames in n < 3 ? .frame(n + 1) : .unchanged })]
    }
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.receive(.driver("echo", 0)) { $0 = Reel(queue: [1], previous: [0]) }
    app.receive(.driver("echo", 1)) { $0 = Reel(queue: [2], previous: [1]) }
    app.receive(.driver("echo", 2)) { $0 = Reel(queue: [3], previous: [2]) }
    app.receive(.driver("echo", 3))
    app.finish()
    #expect(echo.renders == [0, 1, 2, 3])
  }
}

extension HostileTests {
  @Test("G15 a thread reading the reel again and again while drivers end and frames change reads whole reels")
  func readsWhileDriversEnd() async {
    let drivers = (0..<4).map { _ in RecordingDriver<Int, Int>() }
    let router = Router(seed: 0, memory: 3) { _ in
      drivers.indices.map { index in
        Wire("d\(index)", driver: drivers[index], model: { $0 }, events: { n, frames in .frame(frames.current + n) })
      }
    }
    let app = router.start()
    // The reader stops by itself at the first reel in which every driver
    // ended: it spins only while the drivers write, however long this task
    // then waits for the concurrency pool.
    let driverCount = drivers.count
    let reader = ReelReader(app) { $0.endedDrivers.count == driverCount }
    reader.start()
    // Events from many threads, then each driver's end, while the reader
    // reads; each event and each end changes the reel's storage.
    DispatchQueue.concurrentPerform(iterations: drivers.count) { index in
      for _ in 0..<500 { drivers[index].experience(1) }
      drivers[index].end()
    }
    for await reel in app.states where reel.endedDrivers.count == drivers.count { break }
    let reads = await reader.stop()
    #expect(reads.count > 0)
    #expect(reads.problems.isEmpty, "\(reads.problems.prefix(3))")
    #expect(Set(app.state.endedDrivers.map(\.driver)) == Set(drivers.indices.map { "d\($0)" }))
    #expect(app.state.frame == 2_000)
    app.stop()
  }
}

/// Reads a router's state on a thread of its own until it reads a reel for
/// which `done` holds, or until stopped, checking each reel it reads: its
/// previous frames within its memory and older than its frame, its ended
/// drivers never fewer than at the read before.
final class ReelReader: Sendable {
  private let stopping = Locked(false)
  private let result = Locked((count: 0, problems: [String]()))
  private let ended: AsyncStream<Never>
  private let ends: AsyncStream<Never>.Continuation
  private let app: System<Reel<Int>, CycleEvent>
  private let done: @Sendable (Reel<Int>) -> Bool

  init(_ app: System<Reel<Int>, CycleEvent>, until done: @escaping @Sendable (Reel<Int>) -> Bool) {
    self.app = app
    self.done = done
    (ended, ends) = AsyncStream<Never>.makeStream()
  }

  func start() {
    Thread { [self] in
      var count = 0
      var problems: [String] = []
      var ended = 0
      while !stopping.withLock({ $0 }) {
        let reel = app.state
        // Read as a deque: `Array` of an empty deque writes the standard
        // library's shared empty array (see Reel.description).
        let previous = reel.previous
        let endedDrivers = reel.endedDrivers
        if previous.count > reel.memory { problems.append("\(previous.count) previous frames") }
        if let last = previous.last, last >= reel.frame { problems.append("previous \(last) after \(reel.frame)") }
        if endedDrivers.count < ended { problems.append("ended \(endedDrivers) after \(ended)") }
        ended = endedDrivers.count
        count += 1
        if done(reel) { break }
      }
      result.withLock { $0 = (count, problems) }
      ends.finish()
    }.start()
  }

  /// Stops the reader and returns what it read once its thread has ended,
  /// suspending the calling task meanwhile (no thread of the pool waits).
  func stop() async -> (count: Int, problems: [String]) {
    stopping.withLock { $0 = true }
    for await _ in ended {}
    return result.withLock { $0 }
  }
}

/// Reports each model it renders as an event, from inside `render`.
final class EchoDriver: Driver {
  private let inner = RecordingDriver<Int, Int>()
  var events: AsyncThrowingStream<Int, any Error> { inner.events }
  var renders: [Int] { inner.renders }

  func render(_ model: Int) {
    inner.render(model)
    inner.experience(model)
  }
}
