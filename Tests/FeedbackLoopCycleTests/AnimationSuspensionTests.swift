import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopTesting
import Foundation
import Testing

/// An animation suspended and resumed: its frames wait, no tick runs, and
/// it plays on from where it waited.
@Suite(.runsLeftoverJobs) struct AnimationSuspensionTests {
  let tick = Duration.milliseconds(100)

  @Test("G11 a suspended animation waits with no tick running, and plays on from where it waited when resumed")
  func suspendAndResume() {
    let keys = RecordingDriver<Int, Animated.Key>()
    let router = Animated.router(seed: 0, keys: keys)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver(Animated.keys, .animateTo(3))) { $0 = Reel(queue: [0, 1, 2, 3]) }
    app.advance(by: tick)
    app.receive(.tick) { $0 = Reel(queue: [1, 2, 3], previous: [0]) }
    app.send(.driver(Animated.keys, .pause)) { $0 = Reel(queue: [1, 2, 3], previous: [0], isSuspended: true) }
    #expect(app.effectsInFlight.isEmpty)
    app.advance(by: .seconds(10))  // no tick while suspended
    app.send(.driver(Animated.keys, .pause))  // suspended already: nothing changes
    app.send(.driver(Animated.keys, .resume)) { $0 = Reel(queue: [1, 2, 3], previous: [0]) }
    app.advance(by: tick)
    app.receive(.tick) { $0 = Reel(queue: [2, 3], previous: [1]) }
    app.advance(by: tick)
    app.receive(.tick) { $0 = Reel(queue: [3], previous: [2]) }
    app.send(.driver(Animated.keys, .resume))  // nothing suspended: nothing changes
    app.send(.driver(Animated.keys, .pause))  // nothing queued: nothing to suspend
    app.finish()
    #expect(keys.renders == [0, 1, 2, 3])
  }

  @Test("frames intercepted or appended while suspended wait too; a frame or a removal ends the suspension")
  func replanningWhileSuspended() {
    let router = Animated.router(seed: 0, keys: RecordingDriver())
    var reel = router.initial
    router.reduce(&reel, .driver(Animated.keys, .animateTo(2)))
    router.reduce(&reel, .driver(Animated.keys, .pause))
    router.reduce(&reel, .tick)  // a tick already sent when it was suspended
    #expect(reel == Reel(queue: [0, 1, 2], isSuspended: true))
    #expect(!reel.isAnimating && reel.isSuspended)
    router.reduce(&reel, .driver(Animated.keys, .appendTo(0)))
    #expect(reel == Reel(queue: [0, 1, 2, 1, 0], isSuspended: true))
    router.reduce(&reel, .driver(Animated.keys, .animateTo(3)))
    #expect(reel == Reel(queue: [0, 1, 2, 3], isSuspended: true))
    router.reduce(&reel, .driver(Animated.keys, .cancel))
    #expect(reel == Reel(queue: [0]))
    #expect(!reel.isSuspended)
  }

  @Test("a suspended reel is written, read back and dumped with its suspension; others as before")
  func suspendedReelCodableAndDump() throws {
    let suspended = Reel(queue: [1, 2], previous: [0], isSuspended: true)
    let data = try JSONEncoder().encode(suspended)
    #expect(String(decoding: data, as: UTF8.self).contains("\"isSuspended\":true"))
    #expect(try JSONDecoder().decode(Reel<Int>.self, from: data) == suspended)
    #expect(!String(decoding: try JSONEncoder().encode(Reel(queue: [1, 2])), as: UTF8.self).contains("isSuspended"))
    var dumped = ""
    dump(suspended, to: &dumped)
    #expect(dumped.contains("isSuspended: true"))
    #expect("\(suspended)" == "frame 1, queued [2] (suspended), previous [0]")
    let lone = Data(#"{"queue":[1],"isSuspended":true}"#.utf8)
    #expect(throws: DecodingError.self) { try JSONDecoder().decode(Reel<Int>.self, from: lone) }
  }
}
