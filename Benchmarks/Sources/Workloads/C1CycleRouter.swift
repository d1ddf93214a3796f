import FeedbackLoop
import FeedbackLoopCycle

/// C1: a frame through a Cycle router with 3 drivers whose frame filters
/// skip unchanged models. Each event is a key of the first driver, sent from
/// outside (as W2 sends, synchronously: the cost of the Cycle layer, not of
/// a hop); the key changes the first driver's model, so each event renders
/// it once and skips the other two.
///
/// C1skip-0 and C1skip-3 isolate the skipped render: every event changes a
/// part of the frame that no model shows, through a router with 1 input
/// driver and 0 or 3 passive ones; (C1skip-3 − C1skip-0) / 3 is the cost of
/// one skipped render.
public enum CycleRouter {
  public static let eventCount = 1_000_000

  public static let workload = Workload(
    id: "C1", summary: "1,000,000 frames through a router of 3 drivers (1 render, 2 skips)",
    operations: eventCount, runs: 11, makeTrial: { trial(passiveDrivers: 2, changesModel: true, id: "C1") })

  public static func skipWorkload(passiveDrivers: Int) -> Workload {
    Workload(
      id: "C1skip-\(passiveDrivers)",
      summary: "1,000,000 frames that change no model, 1 input driver and \(passiveDrivers) passive ones",
      operations: eventCount, runs: 11,
      makeTrial: { trial(passiveDrivers: passiveDrivers, changesModel: false, id: "C1skip-\(passiveDrivers)") })
  }

  /// The frame: the first driver shows `shown`, the others show `label`,
  /// which never changes; `hidden` is in no model.
  struct Frame: Sendable {
    var shown = 0
    var hidden = 0
    var label = "steady"
  }

  /// A driver that renders into a counter and reports nothing: its events
  /// are sent from outside, as a screen's keys would be.
  final class CountingDriver: Driver, @unchecked Sendable {
    // @unchecked: `renders` is written by `render`, on the loop's thread
    // only, and read after the run.
    var renders = 0
    let events = AsyncStream<Int> { _ in }
    func render(_ model: Int) { renders &+= 1 }
  }

  final class LabelDriver: Driver, @unchecked Sendable {
    // @unchecked: as CountingDriver.
    var renders = 0
    let events = AsyncStream<Int> { _ in }
    func render(_ model: String) { renders &+= 1 }
  }

  static let inputKey = DriverKey<Int>("input")

  static func trial(passiveDrivers: Int, changesModel: Bool, id: String) -> Trial {
    let input = CountingDriver()
    let passive = (0..<passiveDrivers).map { _ in LabelDriver() }
    let router = Router(seed: Frame(), memory: 1) { _ in
      [
        Wire(
          inputKey, driver: input, model: { changesModel ? $0.shown : 0 },
          events: { (delta: Int, frames: Frames<Frame>) in
            var next = frames.current
            if changesModel { next.shown &+= delta } else { next.hidden &+= delta }
            return .frame(next)
          })
      ]
        + passive.enumerated().map { index, driver in
          Wire("passive \(index)", driver: driver, model: \.label, events: { (_: Int, _) in .unchanged })
        }
    }
    let event = router.event(inputKey, 1)
    let n = eventCount
    let slot = Slot<System<Reel<Frame>, CycleEvent>>()
    return Trial(
      run: {
        let system = router.start()
        for _ in 0..<n { system.send(event) }
        slot.value = system
      },
      finish: {
        guard let system = slot.value else { return check(false, "\(id) made no system") }
        let reached = changesModel ? system.state.frame.shown : system.state.frame.hidden
        check(reached == n, "\(id) ended at \(reached)")
        check(input.renders == (changesModel ? n + 1 : 1), "\(id) rendered the input \(input.renders) times")
        check(passive.allSatisfy { $0.renders == 1 }, "\(id) rendered a passive driver more than once")
        system.stop()
      })
  }
}
