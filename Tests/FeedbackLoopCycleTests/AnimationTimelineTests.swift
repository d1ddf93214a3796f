import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopTesting
import Testing

/// Cycle.swift's three timelines, frame by frame, on the test clock: the
/// router plays 10 frames a second, so a tick is 100 ms.
@Suite(.runsLeftoverJobs) struct AnimationTimelineTests {
  let tick = Duration.milliseconds(100)

  @Test("G11 Intercepted: a new target mid-flight replaces the frames queued behind the current one")
  func intercepted() {
    let keys = RecordingDriver<Int, Animated.Key>()
    let router = Animated.router(seed: 1, keys: keys)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver(Animated.keys, .animateTo(5))) { $0 = Reel(queue: [1, 2, 3, 4, 5]) }
    app.advance(by: tick)
    app.receive(.tick) { $0 = Reel(queue: [2, 3, 4, 5], previous: [1]) }
    app.send(.driver(Animated.keys, .animateTo(0))) { $0 = Reel(queue: [2, 1, 0], previous: [1]) }
    app.advance(by: tick)
    app.receive(.tick) { $0 = Reel(queue: [1, 0], previous: [2]) }
    app.send(.driver(Animated.keys, .animateTo(4))) { $0 = Reel(queue: [1, 2, 3, 4], previous: [2]) }
    app.advance(by: tick)
    app.receive(.tick) { $0 = Reel(queue: [2, 3, 4], previous: [1]) }
    app.advance(by: tick)
    app.receive(.tick) { $0 = Reel(queue: [3, 4], previous: [2]) }
    app.advance(by: tick)
    app.receive(.tick) { $0 = Reel(queue: [4], previous: [3]) }
    #expect(app.effectsInFlight.isEmpty)
    app.finish()
    #expect(keys.renders == [1, 2, 1, 2, 3, 4])
  }

  @Test("G11 Appended: a new target mid-flight is queued after the frames playing")
  func appended() {
    let keys = RecordingDriver<Int, Animated.Key>()
    let router = Animated.router(seed: 0, keys: keys)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver(Animated.keys, .appendTo(3))) { $0 = Reel(queue: [0, 1, 2, 3]) }
    app.advance(by: tick)
    app.receive(.tick) { $0 = Reel(queue: [1, 2, 3], previous: [0]) }
    app.send(.driver(Animated.keys, .appendTo(0))) { $0 = Reel(queue: [1, 2, 3, 2, 1, 0], previous: [0]) }
    app.advance(by: tick)
    app.receive(.tick) { $0 = Reel(queue: [2, 3, 2, 1, 0], previous: [1]) }
    app.send(.driver(Animated.keys, .appendTo(3))) {
      $0 = Reel(queue: [2, 3, 2, 1, 0, 1, 2, 3], previous: [1])
    }
    let remaining: [[Int]] = [
      [3, 2, 1, 0, 1, 2, 3], [2, 1, 0, 1, 2, 3], [1, 0, 1, 2, 3], [0, 1, 2, 3], [1, 2, 3], [2, 3], [3],
    ]
    var shown = 2
    for queue in remaining {
      app.advance(by: tick)
      app.receive(.tick) { $0 = Reel(queue: queue, previous: [shown]) }
      shown = queue[0]
    }
    app.advance(by: .seconds(10))
    app.finish()
    #expect(keys.renders == [0, 1, 2, 3, 2, 1, 0, 1, 2, 3])
  }

  @Test("G11 Removed: cancelling keeps the current frame and stops the clock")
  func removed() {
    let keys = RecordingDriver<Int, Animated.Key>()
    let router = Animated.router(seed: 0, keys: keys)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver(Animated.keys, .animateTo(4))) { $0 = Reel(queue: [0, 1, 2, 3, 4]) }
    app.advance(by: tick)
    app.receive(.tick) { $0 = Reel(queue: [1, 2, 3, 4], previous: [0]) }
    app.send(.driver(Animated.keys, .cancel)) { $0 = Reel(queue: [1], previous: [0]) }
    #expect(app.effectsInFlight.isEmpty)
    app.advance(by: .seconds(10))
    app.finish()
    #expect(keys.renders == [0, 1])
  }

  @Test("G11 no tick runs while the queue holds at most one frame")
  func noTickWhenIdle() {
    let keys = RecordingDriver<Int, Animated.Key>()
    let router = Animated.router(seed: 0, keys: keys)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    #expect(app.effectsInFlight.isEmpty)
    app.send(.driver(Animated.keys, .animateTo(1))) { $0 = Reel(queue: [0, 1]) }
    #expect(app.effectsInFlight.count == 1)
    app.advance(by: tick)
    app.receive(.tick) { $0 = Reel(queue: [1], previous: [0]) }
    #expect(app.effectsInFlight.isEmpty)
    app.send(.driver(Animated.keys, .animateTo(1)))  // already there: nothing queued
    #expect(app.effectsInFlight.isEmpty)
    app.advance(by: .seconds(60))  // a minute idle: no tick is received
    app.finish()
  }

  @Test("a stray tick with nothing queued changes nothing")
  func strayTick() {
    let keys = RecordingDriver<Int, Animated.Key>()
    let router = Animated.router(seed: 3, keys: keys)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.tick)
    app.finish()
  }
}
