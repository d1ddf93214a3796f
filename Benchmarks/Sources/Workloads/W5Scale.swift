import FeedbackLoop

/// W5: 100,000 small systems alive at once, each sent 10 events, by tasks
/// running concurrently. Making the systems is part of the measured time.
///
/// By default 1,000 tasks share the systems, 100 each, and send each of
/// them its 10 events; with `tasks` equal to the number of systems, every
/// system has a task of its own, and the tasks' own memory (about a
/// kilobyte each while they wait to run) adds to the peak.
public enum Scale {
  public static let systemCount = 100_000
  public static let eventsPerSystem = 10
  public static let taskCount = 1_000

  public struct Measurement: Sendable {
    public var total: Duration
    public var making: Duration
    public var sending: Duration
    /// The process's peak resident bytes so far (`VmHWM`).
    public var peakResidentBytes: Int?
    /// Resident bytes once the systems are made, and once they have reduced
    /// their events.
    public var residentAfterMaking: Int?
    public var residentAfterSending: Int?
  }

  public static func measure(
    systems count: Int = systemCount, events: Int = eventsPerSystem, tasks: Int = taskCount
  ) async -> Measurement {
    let clock = ContinuousClock()
    let start = clock.now
    var made: [System<Int, CounterEvent>] = []
    made.reserveCapacity(count)
    for _ in 0..<count { made.append(SmallSystem.make()) }
    let systems = made
    let madeAt = clock.now
    let residentAfterMaking = ProcessMemory.residentBytes()
    let perTask = (count + tasks - 1) / tasks
    await withTaskGroup(of: Void.self) { group in
      for first in stride(from: 0, to: count, by: perTask) {
        group.addTask {
          let mine = systems[first..<min(first + perTask, count)]
          for _ in 0..<events {
            for system in mine { system.send(.increment) }
          }
        }
      }
    }
    for system in systems { await system.waitUntil { $0 == events } }
    let end = clock.now
    let peak = ProcessMemory.peakResidentBytes()
    let residentAfterSending = ProcessMemory.residentBytes()
    for system in systems {
      check(system.state == events, "W5: a system ended at \(system.state)")
      system.stop()
    }
    return Measurement(
      total: start.duration(to: end), making: start.duration(to: madeAt), sending: madeAt.duration(to: end),
      peakResidentBytes: peak, residentAfterMaking: residentAfterMaking, residentAfterSending: residentAfterSending)
  }
}
