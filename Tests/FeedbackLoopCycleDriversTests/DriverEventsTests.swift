import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopCycleDrivers
import FeedbackLoopTesting
import Testing

/// A driver whose events are a ``DriverEvents``: what the library's screen
/// is built on.
final class Buttons: Driver, Sendable {
  let events = DriverEvents<Int>()
  func render(_ model: Int) {}
  func tap(_ n: Int) { events.send(n) }
}

enum Taps {
  static let buttons = DriverKey<Int>("buttons")

  static func router(_ buttons: Buttons) -> Router<Int> {
    Router(seed: 0) { _ in
      [Wire(Self.buttons, driver: buttons, model: { $0 }, events: { n, frames in .frame(frames.current + n) })]
    }
  }
}

@Suite(.runsLeftoverJobs) struct DriverEventsTests {
  @Test("a driver instance serves a second run after a router stops: its events are not used up")
  func secondRunAfterStop() {
    let buttons = Buttons()
    let router = Taps.router(buttons)
    let first = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    buttons.tap(1)
    first.receive(.driver(Taps.buttons, 1)) { $0 = Reel(queue: [1], previous: [0]) }
    first.finish()
    buttons.tap(2)  // between the runs: waits for the next one
    let second = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    buttons.tap(3)
    second.receive(.driver(Taps.buttons, 2)) { $0 = Reel(queue: [2], previous: [0]) }
    second.receive(.driver(Taps.buttons, 3)) { $0 = Reel(queue: [5], previous: [2]) }
    second.finish()
  }

  @Test("finishing the events ends the driver in the run going on and in every later one")
  func finishEndsEveryRun() {
    let buttons = Buttons()
    let router = Taps.router(buttons)
    let first = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    buttons.tap(4)
    buttons.events.finish()
    buttons.tap(5)  // after the end: dropped
    first.receive(.driver(Taps.buttons, 4)) { $0 = Reel(queue: [4], previous: [0]) }
    first.receive(.driverEnded("buttons")) {
      $0 = Reel(queue: [4], previous: [0], endedDrivers: [DriverEnd(driver: "buttons")])
    }
    first.finish()
    let second = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    second.receive(.driverEnded("buttons")) { $0 = Reel(queue: [0], endedDrivers: [DriverEnd(driver: "buttons")]) }
    second.finish()
  }

  @Test("events sent from many threads while two iterations take them are each taken once")
  func manySendersTwoTakers() async {
    let events = DriverEvents<Int>()
    async let firstTaker: [Int] = {
      var taken: [Int] = []
      for await n in events { taken.append(n) }
      return taken
    }()
    async let secondTaker: [Int] = {
      var taken: [Int] = []
      for await n in events { taken.append(n) }
      return taken
    }()
    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<4 {
        group.addTask { for n in 0..<250 { events.send(sender * 1_000 + n) } }
      }
    }
    events.finish()
    let taken = await firstTaker + secondTaker
    #expect(taken.count == 1_000)
    #expect(Set(taken).count == 1_000)
  }

  @Test("an iteration cancelled while it waits ends, and leaves later events for the next one")
  func cancelledIterationLeavesTheRest() async {
    let events = DriverEvents<Int>()
    let waiting = Task {
      var iterator = events.makeAsyncIterator()
      return await iterator.next()
    }
    waiting.cancel()
    #expect(await waiting.value == nil)
    events.send(7)
    var iterator = events.makeAsyncIterator()
    #expect(await iterator.next() == 7)
  }
}

@Suite(.runsLeftoverJobs) struct SequenceDriverTests {
  static let readings = DriverKey<Int>("sensor")

  @Test("a driver over any AsyncSequence: its elements are events, its models go to the render closure")
  func sequenceDriver() {
    let (readings, sensor) = AsyncStream<Int>.makeStream()
    let shown = Shown()
    let driver = SequenceDriver<String, AsyncStream<Int>>(readings) { shown.append($0) }
    let router = Router(seed: 0) { _ in
      [Wire(Self.readings, driver: driver, model: { "\($0)°" }, events: { n, _ in .frame(n) })]
    }
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    sensor.yield(21)
    sensor.finish()
    app.receive(.driver(Self.readings, 21)) { $0 = Reel(queue: [21], previous: [0]) }
    app.receive(.driverEnded("sensor")) {
      $0 = Reel(queue: [21], previous: [0], endedDrivers: [DriverEnd(driver: "sensor")])
    }
    app.finish()
    #expect(shown.all == ["0°", "21°"])
  }
}

final class Shown: Sendable {
  private let lines = Locked<[String]>([])
  var all: [String] { lines.withLock { $0 } }
  func append(_ line: String) { lines.withLock { $0.append(line) } }
}
