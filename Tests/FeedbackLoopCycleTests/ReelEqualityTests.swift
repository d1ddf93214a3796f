import FeedbackLoopCycle
import Testing

/// A reel's equality reads its frames, not the router's setting of how many
/// previous frames it keeps.
@Suite struct ReelEqualityTests {
  @Test("two reels holding the same frames are equal whatever their memory")
  func memoryDoesNotCount() {
    #expect(Reel(queue: [2], previous: [1], memory: 4) == Reel(queue: [2], previous: [1]))
    #expect(Reel(seed: 0, memory: 3) == Reel(seed: 0))
  }

  @Test("the frames still count: the shown one, the queue, the previous ones, the drivers ended")
  func framesCount() {
    #expect(Reel(queue: [2], previous: [1], memory: 4) != Reel(queue: [2], previous: [0], memory: 4))
    #expect(Reel(queue: [2, 3], memory: 1) != Reel(queue: [2], memory: 1))
    #expect(Reel(queue: [2]) != Reel(queue: [3]))
    #expect(Reel(queue: [2], endedDrivers: [DriverEnd(driver: "clock")]) != Reel(queue: [2]))
  }

  @Test("a memory that keeps fewer previous frames keeps other frames: the reels differ by those")
  func memoryShapesThePreviousFrames() {
    #expect(Reel(queue: [3], previous: [1, 2], memory: 1) == Reel(queue: [3], previous: [2], memory: 2))
    #expect(Reel(queue: [3], previous: [1, 2], memory: 1) != Reel(queue: [3], previous: [1, 2], memory: 2))
  }
}
