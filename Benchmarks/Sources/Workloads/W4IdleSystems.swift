import FeedbackLoop

/// W4 and W5 run many small systems: State an `Int`, two trivial feedbacks
/// (an input and a query feedback), both idle.
public enum SmallSystem {
  public static func make() -> System<Int, CounterEvent> {
    System(
      initial: 0, reduceReturning: Counter.reduce,
      feedbacks: [
        .input(Input<CounterEvent>()),
        Feedback.query({ $0 < 0 ? $0 : nil }) { _ in .send(.increment) },
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
    /// The resident bytes, split: anonymous memory (the heap), and pages of
    /// code and read-only data read in for the first time while the
    /// systems were made, which the first system alone would have read in
    /// (`/proc/self/status`; `nil` where it is not available).
    public var anonymousBytesPerSystem: Double?
    public var fileBackedBytesPerSystem: Double?
  }

  /// Makes `count` systems, measures what they added, then stops them.
  public static func measure(count: Int = systemCount) -> Measurement? {
    var systems: [System<Int, CounterEvent>] = []
    systems.reserveCapacity(count)
    let splitBefore = ProcessMemory.residentSplit()
    guard let residentBefore = ProcessMemory.residentBytes(),
      let allocatedBefore = ProcessMemory.allocatedBytes()
    else { return nil }
    for _ in 0..<count { systems.append(SmallSystem.make()) }
    guard let residentAfter = ProcessMemory.residentBytes(),
      let allocatedAfter = ProcessMemory.allocatedBytes()
    else { return nil }
    let splitAfter = ProcessMemory.residentSplit()
    for system in systems {
      check(system.state == 0 && !system.isStopped, "W4: a system is not running")
      system.stop()
    }
    var measurement = Measurement(
      residentBytesPerSystem: Double(residentAfter - residentBefore) / Double(count),
      allocatedBytesPerSystem: Double(allocatedAfter - allocatedBefore) / Double(count))
    if let splitBefore, let splitAfter {
      measurement.anonymousBytesPerSystem = Double(splitAfter.anonymous - splitBefore.anonymous) / Double(count)
      measurement.fileBackedBytesPerSystem = Double(splitAfter.fileBacked - splitBefore.fileBacked) / Double(count)
    }
    return measurement
  }
}
