import FeedbackLoop
import FeedbackLoopCycle

/// C2: an animation of 60 queued frames, tick by tick. The ticks are sent
/// from outside, synchronously, so that the figure is the cost of a tick in
/// the loop (advance the queue, remember the old frame, render the new
/// one), not of the clock's sleep: the router runs on a clock that never
/// wakes. Before the queue runs dry, one event appends the next 59 frames,
/// so the animation never stops (its clock effect is started once per run);
/// an operation is one of those 60 events.
///
/// C2-3600 plays an animation of 3,600 queued frames the same way: the same
/// cost per tick shows a tick is O(1), not O(queue length).
public enum CycleAnimation {
  public static let tickCount = 1_200_000

  public static let workload = Workload(
    id: "C2", summary: "1,200,000 ticks of a 60-frame animation (1 append per 59 ticks)",
    operations: tickCount, runs: 11, makeTrial: { trial(length: 60, id: "C2") })

  public static let longWorkload = Workload(
    id: "C2-3600", summary: "1,200,000 ticks of a 3,600-frame animation (1 append per 3,599 ticks)",
    operations: tickCount, runs: 11, makeTrial: { trial(length: 3_600, id: "C2-3600") })

  final class Screen: Driver, @unchecked Sendable {
    // @unchecked: `renders` is written by `render`, on the loop's thread
    // only, and read after the run.
    var renders = 0
    let events = AsyncStream<Int> { _ in }
    func render(_ model: Int) { renders &+= 1 }
  }

  static let screenKey = DriverKey<Int>("screen")

  static func trial(length: Int, id: String) -> Trial {
    let screen = Screen()
    let more = Array(repeating: 0, count: length - 1).indices.map { $0 + 1 }  // 1...length-1
    let router = Router(seed: 0, memory: 4, frameRate: .sixty) { _ in
      [Wire(screenKey, driver: screen, model: { $0 }, events: { (_: Int, _: Frames<Int>) in .append(more) })]
    }
    let append = router.event(screenKey, 0)
    let cycles = tickCount / length
    let slot = Slot<System<Reel<Int>, CycleEvent>>()
    return Trial(
      run: {
        let system = router.start(environment: SystemEnvironment(clock: DormantClock()))
        system.send(append)
        for _ in 0..<cycles {
          for _ in 0..<(length - 2) { system.send(.tick) }
          system.send(append)
          system.send(.tick)
        }
        slot.value = system
      },
      finish: {
        guard let system = slot.value else { return check(false, "\(id) made no system") }
        check(system.state.queue.count == length, "\(id) ended with \(system.state.queue.count) frames queued")
        check(screen.renders == 1 + cycles * (length - 1), "\(id) rendered \(screen.renders) times")
        system.stop()
      })
  }
}

/// A clock whose sleeps never end before they are cancelled (a day): the
/// animation's own ticks stay out of C2, whose ticks are sent by hand.
struct DormantClock: Clock {
  typealias Instant = ContinuousClock.Instant
  var now: Instant { ContinuousClock.now }
  var minimumResolution: Duration { ContinuousClock().minimumResolution }

  func sleep(until deadline: Instant, tolerance: Duration?) async throws {
    try await Task.sleep(for: .seconds(86_400))
  }
}
