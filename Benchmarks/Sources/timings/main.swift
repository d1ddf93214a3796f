// Times the workloads, each as the median of several runs after one warm-up
// run, with a ContinuousClock, and prints one `MEASURED` line per workload
// for `Benchmarks/run`, which turns them into RESULT lines.
//
//   timings                  every per-operation workload (W0 W1 W2 W2a W3 W6 W6-100)
//   timings W4               memory of 10,000 idle systems (run it in a process of its own)
//   timings W5               100,000 systems, 10 events each (in a process of its own)
//   timings W0 W2 ...        the workloads named
import Workloads

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

let arguments = Array(CommandLine.arguments.dropFirst())
let requested = arguments.isEmpty ? Workloads.timed.map(\.id) : arguments
let known = Set(Workloads.timed.map(\.id) + ["W4", "W5"])
for id in requested where !known.contains(id) {
  print("unknown workload \(id); known: \(known.sorted().joined(separator: " "))")
  exit(2)
}

func nanoseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

func format(_ value: Double) -> String {
  let rounded = (value * 100).rounded() / 100
  return "\(rounded)"
}

for id in requested {
  switch id {
  case "W4":
    guard let measured = IdleSystems.measure() else {
      print("W4 needs /proc and mallinfo2 (Linux)")
      exit(1)
    }
    print(
      "W4  \(IdleSystems.systemCount) idle systems: \(Int(measured.residentBytesPerSystem)) resident bytes"
        + " per system, \(Int(measured.allocatedBytesPerSystem)) bytes allocated per system")
    print("MEASURED W4 \(Int(measured.residentBytesPerSystem.rounded()))")
  case "W5":
    var runs: [Scale.Measurement] = []
    for _ in 0..<3 { runs.append(await Scale.measure()) }
    let median = runs.sorted { $0.total < $1.total }[1]
    let peak = runs.compactMap(\.peakResidentBytes).max()
    let events = Scale.systemCount * Scale.eventsPerSystem
    print(
      "W5  \(Scale.systemCount) systems x \(Scale.eventsPerSystem) events: median total \(median.total)"
        + " (making \(median.making), sending \(median.sending)); runs: "
        + runs.map { "\($0.total)" }.joined(separator: ", ")
        + "; peak resident \(peak.map { "\($0 / 1_048_576) MiB" } ?? "unknown")")
    print("MEASURED W5 \(format(nanoseconds(median.total) / Double(events)))")
    print("W5TOTAL \(format(nanoseconds(median.total) / 1e9)) \(peak.map { "\($0)" } ?? "-")")
  default:
    let workload = Workloads.timed.first { $0.id == id }!
    _ = await workload.makeTrial().timed()  // warm-up
    var perOperation: [Double] = []
    for _ in 0..<workload.runs {
      let elapsed = await workload.makeTrial().timed()
      perOperation.append(nanoseconds(elapsed) / Double(workload.operations))
    }
    perOperation.sort()
    let median = perOperation[perOperation.count / 2]
    print(
      "\(workload.id)  \(workload.summary): median \(format(median)) ns/op"
        + " (min \(format(perOperation.first!)), max \(format(perOperation.last!)); \(workload.runs) runs)")
    print("MEASURED \(workload.id) \(format(median))")
  }
}
