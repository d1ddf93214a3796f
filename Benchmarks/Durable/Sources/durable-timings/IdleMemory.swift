import CDurableSupport
import FeedbackLoop
import FeedbackLoopDurable
import Foundation

/// D6: the memory of idle durable systems, as W4 measures plain ones:
/// 10,000 of them (state an `Int`, an input and a query feedback, both
/// idle), restored from an empty `InMemoryJournal` through one writer;
/// the resident bytes they add, per system. Run it in a process of its own
/// (`durable-timings D6`), and `D6plain`, the same systems not durable, in
/// another.
enum IdleMemory {
  static let systemCount = 10_000

  static func feedbacks() -> [Feedback<Int, Tally>] {
    [.input(Input<Tally>()), .query({ $0 < 0 ? $0 : nil }) { _ in .send(.increment) }]
  }

  static func run(durable: Bool) async throws {
    let id = durable ? "D6" : "D6plain"
    let writer = JournalWriter(journal: InMemoryJournal())
    var durableSystems: [DurableSystem<Int, Tally>] = []
    var plainSystems: [System<Int, Tally>] = []
    durableSystems.reserveCapacity(systemCount)
    plainSystems.reserveCapacity(systemCount)
    // One first, so that code and the writer's first use are paged in
    // before the reading.
    if durable {
      durableSystems.append(
        try await DurableSystem.restore(
          id: "warm", writer: writer, initial: 0, reduce: Tallies.reduce, feedbacks: feedbacks()))
    } else {
      plainSystems.append(System(initial: 0, reduce: Tallies.reduce, feedbacks: feedbacks()))
    }
    let residentBefore = residentBytes()
    let allocatedBefore = durable_benchmarks_allocated_bytes()
    for index in 0..<systemCount {
      if durable {
        durableSystems.append(
          try await DurableSystem.restore(
            id: "idle-\(index)", writer: writer, initial: 0, reduce: Tallies.reduce, feedbacks: feedbacks()))
      } else {
        plainSystems.append(System(initial: 0, reduce: Tallies.reduce, feedbacks: feedbacks()))
      }
    }
    let residentAfter = residentBytes()
    let allocatedAfter = durable_benchmarks_allocated_bytes()
    for system in durableSystems {
      check(system.state == 0 && !system.isStopped, "D6: a system is not running")
      system.stop()
    }
    for system in plainSystems {
      check(system.state == 0 && !system.isStopped, "D6plain: a system is not running")
      system.stop()
    }
    let resident = Double(residentAfter - residentBefore) / Double(systemCount)
    let allocated = Double(allocatedAfter - allocatedBefore) / Double(systemCount)
    print(
      "\(id) \(systemCount) idle \(durable ? "durable" : "plain") systems: \(Int(resident.rounded())) resident bytes"
        + " per system, \(Int(allocated.rounded())) bytes allocated per system")
    printResult(id, "\(Int(resident.rounded()))", "-")
  }

  /// Resident bytes now (`/proc/self/statm`, second field, in pages).
  static func residentBytes() -> Int {
    guard let text = try? String(contentsOfFile: "/proc/self/statm", encoding: .utf8),
      let pages = text.split(separator: " ").dropFirst().first.flatMap({ Int($0) })
    else { fatalError("D6 needs /proc/self/statm (Linux)") }
    return pages * Int(sysconf(Int32(_SC_PAGESIZE)))
  }
}

/// D6passivated: 10,000 durable systems restored through a `DurableHost`
/// that keeps at most one loaded (`maxLoaded: 1`), each let go at once, so
/// that each restore passivates the one before; what they leave behind, per
/// system. The systems have the query feedback only: a bound input keeps a
/// system from being idle, by the host's rule. Nothing is sent, so the
/// journal holds nothing of theirs either. In a process of its own.
enum PassivatedMemory {
  static func run() async throws {
    let writer = JournalWriter(journal: InMemoryJournal())
    let host = DurableHost<Int, Tally>(passivateAfter: nil, maxLoaded: 1) { id in
      try await DurableSystem.restore(
        id: id, writer: writer, initial: 0, reduce: Tallies.reduce,
        feedbacks: [.query({ $0 < 0 ? $0 : nil }) { _ in .send(.increment) }])
    }
    for index in 0..<100 { _ = try await host.system("warm-\(index)") }
    let residentBefore = IdleMemory.residentBytes()
    let allocatedBefore = durable_benchmarks_allocated_bytes()
    for index in 0..<IdleMemory.systemCount { _ = try await host.system("idle-\(index)") }
    let residentAfter = IdleMemory.residentBytes()
    let allocatedAfter = durable_benchmarks_allocated_bytes()
    let loaded = host.loadedCount
    check(loaded <= 2, "D6passivated: the host holds \(loaded) systems")
    await host.stop()
    let count = Double(IdleMemory.systemCount)
    let resident = Double(residentAfter - residentBefore) / count
    let allocated = Double(allocatedAfter - allocatedBefore) / count
    print(
      "D6passivated \(IdleMemory.systemCount) systems restored and passivated by a host (maxLoaded 1, \(loaded) loaded"
        + " at the end): \(format(resident, digits: 1)) resident bytes per system,"
        + " \(format(allocated, digits: 1)) bytes allocated per system")
    printResult("D6passivated", format(resident, digits: 1), "-")
  }
}
