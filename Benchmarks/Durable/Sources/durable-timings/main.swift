// Times the durable workloads D1–D6 and prints, for each, the figures and
// one or more RESULT lines, each beside its baseline measured in the same run:
//
//   RESULT <workload> <figure> <ratio to its baseline>
//
//   durable-timings D1       SQLite, one system: events/s (ratio to GRDB's raw batched inserts)
//   durable-timings D1-encode  one event's encoding by the writer, ns (ratio to one JSONEncoder reused)
//   durable-timings D1-latency   the same system's sendDurably round trip, p50 and p99 in µs
//   durable-timings D2 D2-latency    the same over 1,000 systems
//   durable-timings D3 D3-latency    PostgreSQL (FEEDBACKLOOP_POSTGRES_URL), one system
//   durable-timings D4       W1 on a durable system over InMemoryJournal, ns/event (ratio to W1)
//   durable-timings D5       restore of 10,000 and 100,000 events, µs (ratio to a raw read and fold)
//   durable-timings D6       resident bytes per idle durable system (a process of its own)
//   durable-timings D6plain  the same for plain systems (a process of its own)
//   durable-timings D6passivated  bytes left per system restored and passivated by a DurableHost
//
// Figures are medians over rounds; `run` runs every workload twice.
import Foundation

let known = [
  "D1-encode", "D1", "D1-latency", "D2", "D2-latency", "D3", "D3-latency", "D4", "D5", "D6", "D6plain", "D6passivated",
]
let requested = Array(CommandLine.arguments.dropFirst())
for id in requested where !known.contains(id) {
  print("unknown workload \(id); known: \(known.joined(separator: " "))")
  exit(2)
}
if requested.isEmpty {
  print("name the workloads to run: \(known.joined(separator: " "))")
  exit(2)
}

for id in requested {
  print("== \(id) (load \(loadAverage()), codec \(BenchmarkCodec.name))")
  switch id {
  case "D1-encode":
    EncodingCost.run(rounds: 5)
  case "D1":
    try await SQLiteWorkloads.throughput(id: "D1", systemCount: 1, eventCount: 100_000, chunk: 1_000, rounds: 3)
  case "D1-latency":
    try await SQLiteWorkloads.latency(id: "D1", systemCount: 1, rounds: 2_000)
  case "D2":
    try await SQLiteWorkloads.throughput(id: "D2", systemCount: 1_000, eventCount: 100_000, chunk: 10_000, rounds: 3)
  case "D2-latency":
    try await SQLiteWorkloads.latency(id: "D2", systemCount: 1_000, rounds: 5)
  case "D3":
    try await PostgresWorkloads.throughput(id: "D3", systemCount: 1, eventCount: 100_000, chunk: 1_000, rounds: 3)
  case "D3-latency":
    try await PostgresWorkloads.latency(id: "D3", systemCount: 1, rounds: 1_000)
  case "D4":
    try await LoopCost.run(rounds: 5)
  case "D5":
    try await Restore.run(rounds: 21)
  case "D6":
    try await IdleMemory.run(durable: true)
  case "D6plain":
    try await IdleMemory.run(durable: false)
  case "D6passivated":
    try await PassivatedMemory.run()
  default:
    fatalError("unreachable")
  }
}
