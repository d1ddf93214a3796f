import FeedbackLoop

/// W4 and W5 run many small systems: State an `Int`, two trivial feedbacks
/// (an input and a query feedback), both idle.
public enum SmallSystem {
  public static func make() -> System<Int, CounterEvent> {
    System(
      initial: 0, reduce: Counter.reduce,
      feedbacks: [
        .input(Input<CounterEvent>()),
        Feedback(lensing: { $0 < 0 ? $0 : nil }) { _ in .send(.increment) },
      ])
  }
}

/// W4: 10,000 idle running systems; the memory each costs.
public enum IdleSystems {
  public static let systemCount = 10_000

  public struct Measurement: Sendable {
    /// Resident bytes the systems added, per system (`/proc/self/statm`).
    public var residentBytesPerSystem: Double
    /// Bytes the allocator handed out for them, per system (`mallinfo2`).
    public var allocatedBytesPerSystem: Double
  }

  /// Makes `count` systems, measures what they added, then stops them.
  public static func measure(count: Int = systemCount) -> Measurement? {
    var systems: [System<Int, CounterEvent>] = []
    systems.reserveCapacity(count)
    guard let residentBefore = ProcessMemory.residentBytes(),
      let allocatedBefore = ProcessMemory.allocatedBytes()
    else { return nil }
    for _ in 0..<count { systems.append(SmallSystem.make()) }
    guard let residentAfter = ProcessMemory.residentBytes(),
      let allocatedAfter = ProcessMemory.allocatedBytes()
    else { return nil }
    for system in systems {
      check(system.state == 0 && !system.isStopped, "W4: a system is not running")
      system.stop()
    }
    return Measurement(
      residentBytesPerSystem: Double(residentAfter - residentBefore) / Double(count),
      allocatedBytesPerSystem: Double(allocatedAfter - allocatedBefore) / Double(count))
  }
}
