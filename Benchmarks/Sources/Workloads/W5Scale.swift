import FeedbackLoop

/// W5: 100,000 small systems alive at once, each sent 10 events by a task of
/// its own, all tasks running concurrently. Making the systems is part of
/// the measured time.
public enum Scale {
  public static let systemCount = 100_000
  public static let eventsPerSystem = 10

  public struct Measurement: Sendable {
    public var total: Duration
    public var making: Duration
    public var sending: Duration
    /// The process's peak resident bytes so far (`VmHWM`).
    public var peakResidentBytes: Int?
  }

  public static func measure(systems count: Int = systemCount, events: Int = eventsPerSystem) async -> Measurement {
    let clock = ContinuousClock()
    let start = clock.now
    var made: [System<Int, CounterEvent>] = []
    made.reserveCapacity(count)
    for _ in 0..<count { made.append(SmallSystem.make()) }
    let systems = made
    let madeAt = clock.now
    await withTaskGroup(of: Void.self) { group in
      for system in systems {
        group.addTask {
          for _ in 0..<events { system.send(.increment) }
        }
      }
    }
    for system in systems { await system.waitUntil { $0 == events } }
    let end = clock.now
    let peak = ProcessMemory.peakResidentBytes()
    for system in systems {
      check(system.state == events, "W5: a system ended at \(system.state)")
      system.stop()
    }
    return Measurement(
      total: start.duration(to: end), making: start.duration(to: madeAt), sending: madeAt.duration(to: end),
      peakResidentBytes: peak)
  }
}
