import FeedbackLoopCycle
import Testing

/// An event filter tested as a function: frames in, an update out, read
/// with `==` or through its change, with no router and no reel.
@Suite struct FrameUpdateTests {
  @Test("an event filter's update is compared with the update a test expects")
  func updatesCompare() {
    #expect(Animated.filter(.animateTo(3), Frames(current: 1)) == .intercept([2, 3]))
    #expect(Animated.filter(.animateTo(1), Frames(current: 1)) == .removeAnimation)
    #expect(Animated.filter(.appendTo(4), Frames(current: 1, queued: [2])) == .append([3, 4]))
    #expect(Animated.filter(.appendTo(2), Frames(current: 1, queued: [2])) == .unchanged)
    #expect(Animated.filter(.cancel, Frames(current: 5, previous: [4])) == .removeAnimation)
    #expect(FrameUpdate<Int>.frame(1) != .frame(2))
    #expect(FrameUpdate<Int>.intercept([1]) != .append([1]))
  }

  @Test("an update's change is read by a switch, frames and all")
  func changeIsReadable() {
    let update = Animated.filter(.animateTo(0), Frames(current: 3, previous: [4, 5]))
    guard case .intercept(let frames) = update.change else {
      Issue.record("expected an interception, got \(update)")
      return
    }
    #expect(frames == [2, 1, 0])
    #expect("\(update)" == ".intercept([2, 1, 0])")
  }

  @Test("frames written by a test read as the reel's: current, previous, queued, last")
  func framesWrittenByATest() {
    let frames = Frames(current: 2, previous: [0, 1], queued: [3, 4])
    #expect(frames.current == 2)
    #expect(Array(frames.previous) == [0, 1])
    #expect(Array(frames.queued) == [3, 4])
    #expect(frames.last == 4)
    #expect(Frames(current: 7).last == 7)
  }
}
