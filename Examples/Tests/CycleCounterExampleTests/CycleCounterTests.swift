import CycleCounterExample
import CycleDrivers
import FeedbackLoopCycle
import FeedbackLoopTesting
import Synchronization
import Testing

/// What the screen drew, in order.
final class Drawn: Sendable {
  let lines = Mutex<[String]>([])
  var all: [String] { lines.withLock { $0 } }
  func draw(_ line: String) { lines.withLock { $0.append(line) } }
}

@Suite("Cycle counter: a screen and a clock, two drivers in one frame")
struct CycleCounterTests {
  @Test func keysCountAndTheClockCountsSecondsInTheSameFrame() {
    let drawn = Drawn()
    let clock = TestClock()
    let screen = CycleCounter.screen(draw: drawn.draw)
    let ticker = Ticker(clock: clock, interval: .seconds(1))
    let router = CycleCounter.router(screen: screen, ticker: ticker)
    let app = TestSystem(
      initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks, clock: clock)
    screen.press(.increment)
    app.receive(.driver(CycleCounter.keys, .increment)) {
      $0 = Reel(queue: [.init(count: 1)], previous: [.init()])
    }
    app.advance(by: .seconds(1))
    app.receive(.driver(CycleCounter.clock, .tick)) {
      $0 = Reel(queue: [.init(count: 1, seconds: 1)], previous: [.init(count: 1)])
    }
    screen.press(.pause)
    app.receive(.driver(CycleCounter.keys, .pause)) {
      $0 = Reel(queue: [.init(count: 1, seconds: 1, isRunning: false)], previous: [.init(count: 1, seconds: 1)])
    }
    app.advance(by: .seconds(5))  // paused: no tick reaches the frame
    app.finish()
    #expect(drawn.all == ["count 0 · 0s", "count 1 · 0s", "count 1 · 1s", "count 1 · 1s (paused)"])
  }

  @Test func theScreenRendersOnlyWhatChanged() {
    let drawn = Drawn()
    let clock = TestClock()
    let screen = CycleCounter.screen(draw: drawn.draw)
    let ticker = Ticker(clock: clock, interval: .seconds(1))
    let router = CycleCounter.router(screen: screen, ticker: ticker)
    let app = TestSystem(
      initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks, clock: clock,
      exhaustivity: .off)
    screen.press(.increment)
    screen.press(.decrement)
    app.skipReceivedEvents()
    #expect(drawn.all == ["count 0 · 0s", "count 1 · 0s", "count 0 · 0s"])
    app.finish()
  }
}
