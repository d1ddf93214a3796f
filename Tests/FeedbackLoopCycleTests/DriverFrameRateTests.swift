import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopTesting
import Testing

/// A driver that takes an animation's frames at a rate of its own: one
/// router clock, each driver sampling it.
@Suite(.runsLeftoverJobs) struct DriverFrameRateTests {
  static let panel = DriverKey<Int>("panel")

  final class Panel: Driver, Sendable {
    let shown = RecordingDriver<Int, Int>()
    let events = AsyncStream<Int> { _ in }
    func render(_ model: Int) { shown.render(model) }
  }

  @Test("G11 a driver at half the router's rate renders every other frame of an animation, and the last")
  func halfRateDriverSamplesTheAnimation() {
    let keys = RecordingDriver<Int, Animated.Key>()
    let panel = Panel()
    let router = Router(seed: 0, frameRate: FrameRate(framesPerSecond: 10)) { _ in
      [
        Wire(Animated.keys, driver: keys, model: { $0 }, events: Animated.filter),
        Wire(Self.panel, driver: panel, model: { $0 }, events: { _, _ in .unchanged })
          .takingFrames(at: FrameRate(framesPerSecond: 5)),
      ]
    }
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver(Animated.keys, .animateTo(5))) { $0 = Reel(queue: [0, 1, 2, 3, 4, 5]) }
    for frame in 1...5 {
      app.advance(by: .milliseconds(100))
      app.receive(.tick) { $0 = Reel(queue: Array(frame...5), previous: [frame - 1]) }
    }
    app.send(.driver(Animated.keys, .animateTo(6))) { $0 = Reel(queue: [5, 6], previous: [4]) }
    app.advance(by: .milliseconds(100))
    app.receive(.tick) { $0 = Reel(queue: [6], previous: [5]) }
    app.finish()
    #expect(keys.renders == [0, 1, 2, 3, 4, 5, 6])
    #expect(panel.shown.renders == [0, 2, 4, 5, 6])
  }

  @Test(
    "a driver's rate is rounded so that it never renders faster than asked; at the router's rate or above, every frame")
  func ratesRoundUp() {
    let keys = RecordingDriver<Int, Animated.Key>()
    let slow = Panel()
    let fast = Panel()
    let router = Router(seed: 0, frameRate: FrameRate(framesPerSecond: 10)) { _ in
      [
        Wire(Animated.keys, driver: keys, model: { $0 }, events: Animated.filter),
        Wire(DriverKey<Int>("slow"), driver: slow, model: { $0 }, events: { _, _ in .unchanged })
          .takingFrames(at: FrameRate(framesPerSecond: 4)),  // 10 / 4: one frame in 3
        Wire(DriverKey<Int>("fast"), driver: fast, model: { $0 }, events: { _, _ in .unchanged })
          .takingFrames(at: FrameRate(framesPerSecond: 60)),
      ]
    }
    let app = TestSystem(
      initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks, exhaustivity: .off)
    app.send(.driver(Animated.keys, .animateTo(7)))
    app.advance(by: .milliseconds(700))
    app.skipReceivedEvents()
    app.finish()
    #expect(slow.shown.renders == [0, 3, 6, 7])
    #expect(fast.shown.renders == Array(0...7))
  }
}
