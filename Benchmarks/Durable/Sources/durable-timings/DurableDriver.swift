import FeedbackLoop
import FeedbackLoopDurable
import Foundation

/// What D1, D2 and D3 do to a durable system, whatever its journal.
enum DurableDriver {
  /// The throughput run: `eventCount` events sent round robin to
  /// `systemCount` systems (event `i` to system `i % systemCount`) with
  /// `send`, `chunk` at a time, each chunk followed by `waitForCommit()` on
  /// every system: the writer batches what gathers meanwhile. Returns the
  /// time from the first send to the last commit.
  static func throughput(
    journal: CountingJournal, idPrefix: String, systemCount: Int, eventCount: Int, chunk: Int
  ) async throws -> Duration {
    let writer = JournalWriter(journal: journal, queue: .unbounded)
    var systems: [DurableSystem<Int, Tally>] = []
    systems.reserveCapacity(systemCount)
    for index in 0..<systemCount {
      systems.append(
        try await DurableSystem.restore(
          id: "\(idPrefix)\(index)", writer: writer, initial: 0, reduce: Tallies.reduce,
          codec: BenchmarkCodec.codec))
    }
    journal.reset()
    let clock = ContinuousClock()
    let start = clock.now
    var sent = 0
    while sent < eventCount {
      let end = min(sent + chunk, eventCount)
      for index in sent..<end { systems[index % systemCount].send(Tallies.event(index)) }
      for system in systems { try await system.waitForCommit() }
      sent = end
    }
    let elapsed = start.duration(to: clock.now)
    for (offset, system) in systems.enumerated() {
      let count = eventCount / systemCount + (offset < eventCount % systemCount ? 1 : 0)
      check(
        system.committedSequence == UInt64(count) && system.failure == nil,
        "\(system.id) committed \(system.committedSequence) of \(count) (\(String(describing: system.failure)))")
      system.stop()
    }
    return elapsed
  }

  /// The commit latency: `rounds` calls to `sendDurably`, one after the
  /// other, on each of `systemCount` systems, the systems' callers running
  /// at the same time. Returns every round trip, in nanoseconds.
  static func latencies(
    journal: some Journal, idPrefix: String, systemCount: Int, rounds: Int
  ) async throws -> [Double] {
    let writer = JournalWriter(journal: journal, queue: .unbounded)
    var systems: [DurableSystem<Int, Tally>] = []
    for index in 0..<systemCount {
      systems.append(
        try await DurableSystem.restore(
          id: "\(idPrefix)\(index)", writer: writer, initial: 0, reduce: Tallies.reduce,
          codec: BenchmarkCodec.codec))
    }
    let all = try await withThrowingTaskGroup(of: [Double].self) { group in
      for system in systems {
        group.addTask {
          let clock = ContinuousClock()
          var times: [Double] = []
          times.reserveCapacity(rounds)
          for round in 0..<rounds {
            let start = clock.now
            try await system.sendDurably(Tallies.event(round))
            times.append(nanoseconds(start.duration(to: clock.now)))
          }
          return times
        }
      }
      var all: [Double] = []
      for try await times in group { all += times }
      return all
    }
    for system in systems {
      check(system.committedSequence == UInt64(rounds), "\(system.id) committed \(system.committedSequence)")
      system.stop()
    }
    return all
  }
}

/// The figures of one throughput workload, over its rounds.
struct ThroughputReport {
  var id: String
  var eventCount: Int
  var durable: [Double] = []  // seconds per round
  var raw: [Double] = []
  var appends: [[Int]] = []
  var batches: [Int] = []

  func print(label: String) {
    let durableRate = Double(eventCount) / median(durable)
    let rawRate = Double(eventCount) / median(raw)
    // Each round's raw inserts use that round's batch size: the ratio is
    // taken per round, then its median.
    let ratio = median(durable.indices.map { raw[$0] / durable[$0] })
    for round in durable.indices {
      let sizes = appends[round].sorted()
      Swift.print(
        "\(id) round \(round + 1): durable \(format(Double(eventCount) / durable[round], digits: 0)) events/s,"
          + " raw \(format(Double(eventCount) / raw[round], digits: 0)) events/s;"
          + " \(sizes.count) transactions of \(sizes.first ?? 0)...\(sizes.last ?? 0) events"
          + " (median \(sizes.isEmpty ? 0 : sizes[sizes.count / 2]), mean \(format(Double(eventCount) / Double(max(1, sizes.count)), digits: 1))),"
          + " \(batches[round]) system batches")
    }
    Swift.print(
      "\(id) \(label): durable \(format(durableRate, digits: 0)) events/s against raw \(format(rawRate, digits: 0)),"
        + " median of \(durable.count) rounds; median ratio of a round \(format(ratio))")
    printResult(id, format(durableRate, digits: 0), format(ratio))
  }
}

func printLatencies(_ id: String, durable: [Double], raw: [Double], label: String) {
  let p50 = percentile(durable, 50) / 1000
  let p99 = percentile(durable, 99) / 1000
  let rawP50 = percentile(raw, 50) / 1000
  let rawP99 = percentile(raw, 99) / 1000
  print(
    "\(id) \(label): sendDurably round trip p50 \(format(p50, digits: 1)) µs, p99 \(format(p99, digits: 1)) µs"
      + " over \(durable.count); a raw one-row transaction p50 \(format(rawP50, digits: 1)) µs,"
      + " p99 \(format(rawP99, digits: 1)) µs over \(raw.count)")
  printResult("\(id)-commit-p50", format(p50, digits: 1), format(p50 / rawP50))
  printResult("\(id)-commit-p99", format(p99, digits: 1), format(p99 / rawP99))
}
