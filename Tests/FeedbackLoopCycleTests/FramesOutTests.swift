import FeedbackLoopCycle
import Testing

/// The common test as Cycle.swift writes it: events in, frames out; and the
/// reel's frames read as arrays.
@Suite struct FramesOutTests {
  @Test("events in, frames out: each frame shown, ticks included, with no system running")
  func eventsInFramesOut() {
    let router = Animated.router(seed: 0, keys: RecordingDriver())
    #expect(router.frames(after: [.driver(Animated.keys, .animateTo(3)), .tick, .tick, .tick]) == [0, 1, 2, 3])
    #expect(
      router.frames(after: [
        .driver(Animated.keys, .animateTo(3)), .tick, .driver(Animated.keys, .animateTo(0)), .tick, .tick,
      ]) == [0, 1, 0])  // the last tick finds nothing queued: no frame
  }

  @Test("a frame shown twice in a row is out twice; events that show none add nothing")
  func repeatsAndNothing() {
    let keys = RecordingDriver<Int, Int>()
    let router = Router(seed: 0) { _ in
      [Wire(DriverKey<Int>("keys"), driver: keys, model: { $0 }, events: { n, _ in n < 0 ? .unchanged : .frame(n) })]
    }
    let key = DriverKey<Int>("keys")
    #expect(
      router.frames(after: [.driver(key, 1), .driver(key, 1), .driver(key, -1), .driverEnded("keys"), .tick])
        == [0, 1, 1])
    #expect(router.frames(after: [.driver(key, 5)], from: Reel(queue: [4])) == [4, 5])
  }

  @Test("a reel's frames read as arrays: a test compares them with array literals")
  func reelFramesAreArrays() {
    let reel = Reel(queue: [1, 2, 3], previous: [0], memory: 1)
    let arrays: (queue: [Int], queued: [Int], previous: [Int]) = (reel.queue, reel.queued, reel.previous)
    #expect(arrays.queue == [1, 2, 3])
    #expect(reel.queue == [1, 2, 3])
    #expect(reel.queued == [2, 3])
    #expect(reel.previous == [0])
    #expect(Reel(seed: 5).previous == [])
    #expect(Frames(current: 1, previous: [0], queued: [2]).previous == [0])
  }
}
