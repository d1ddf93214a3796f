// Times the workloads, each as the median of several runs after one warm-up
// run, with a ContinuousClock, and prints one `MEASURED` line per workload
// for `Benchmarks/run`, which turns them into RESULT lines.
//
//   timings                  every per-operation workload (W0 W1 W2 W2a W3 W3-1000 W6 W6-100
//                            W6-10000) and the references (task-chain, the floor under W2a;
//                            lock-pair; W2d; W3plain, W3 with closure queries; W6fold,
//                            W6fold-100, W6fold-10000, W6's reducer alone; W6tree,
//                            W6tree-100, W6set, W6set-100, W6 over a TreeSet and a Set; W6dict,
//                            W6dict-100, W6dictplain, W6 by id)
//                            and the UI store on the main actor (W12, W12plain, W13,
//                            W13plain, W14; W12scoped-1, W12scoped-5, W12scoped-10, W12
//                            sent to a store scoped that many levels deep; W12nested-10,
//                            W12scoped-10's events sent to its root store; W12read and
//                            W12scopedread-10, the root and the deepest store read after
//                            each send); W8, a statechart's reducer,
//                            and W8flat, the same behaviour as a flat enum reducer;
//                            C1, C1skip-0, C1skip-3, a Cycle router of 3 drivers and
//                            its skipped renders, C1skip-30, C1cmp, C1filter, a skipped
//                            render's baselines; C2, C2-3600, a tick of a 60- and a
//                            3,600-frame animation;
//                            W7, W7-100, W7-10000, a child feature lifted by id, W7single,
//                            the child alone, W7case, W7 through a ChildEventCase; W7b-1, W7b-5, W7b-10, the child lifted 1, 5 and
//                            10 levels deep; W7bcase-1, W7bcase-5, W7bcase-10, the same
//                            through an EventCase; W7bmix-10, through ten levels of three
//                            shapes
//   timings W4               memory of 10,000 idle systems (run it in a process of its own)
//   timings W5               100,000 systems, 10 events each: one run (in a process of its own)
//   timings W5-tasks         the same with one task per system: one run (in a process of its own)
//   timings W0 W2 ...        the workloads named
//   timings --once W1        one run, no warm-up: for profilers (perf, callgrind)
//   timings --cpu-time W12 W14  the processor time of each run instead of its wall-clock
//                            time (for a loaded machine: see Trial.timedOnProcessor)
//   timings --paired W10refalone W10ref  the two workloads' runs in turns, and the ratio of
//                            each pair (the first's time over the second's): a host whose
//                            speed changes from one minute to the next changes both runs
//                            of a pair alike, so a ratio target is read from the pairs
import Workloads

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

var arguments = Array(CommandLine.arguments.dropFirst())
let once = arguments.contains("--once")
arguments.removeAll { $0 == "--once" }
let onProcessor = arguments.contains("--cpu-time")
arguments.removeAll { $0 == "--cpu-time" }
let paired = arguments.contains("--paired")
arguments.removeAll { $0 == "--paired" }
let measurable = Workloads.timed + Workloads.references + Workloads.store + Workloads.threads
let requested = arguments.isEmpty ? measurable.map(\.id) : arguments
if paired, requested.count != 2 || requested.contains(where: { ["W4", "W5", "W5-tasks"].contains($0) }) {
  print("--paired takes two per-operation workloads, e.g. --paired W10refalone W10ref")
  exit(2)
}
let known = Set(measurable.map(\.id) + ["W4", "W5", "W5-tasks"])
for id in requested where !known.contains(id) {
  print("unknown workload \(id); known: \(known.sorted().joined(separator: " "))")
  exit(2)
}

func nanoseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

func mebibytes(_ bytes: Int?) -> String {
  bytes.map { "\($0 / 1_048_576) MiB" } ?? "unknown"
}

func format(_ value: Double) -> String {
  let rounded = (value * 100).rounded() / 100
  return "\(rounded)"
}

/// One run of `workload`, in nanoseconds per operation. On the main actor,
/// as the top-level code that calls it: the UI store's workloads make their
/// trials there.
@MainActor
func timedRun(_ workload: Workload) async -> Double {
  let trial = workload.makeTrial()
  let elapsed = onProcessor ? await trial.timedOnProcessor() : await trial.timed()
  return nanoseconds(elapsed) / Double(workload.operations)
}

if paired {
  let (first, second) = (
    measurable.first { $0.id == requested[0] }!, measurable.first { $0.id == requested[1] }!
  )
  _ = await timedRun(first)  // warm-up
  _ = await timedRun(second)
  var ratios: [Double] = []
  for _ in 0..<max(first.runs, second.runs) {
    let (a, b) = (await timedRun(first), await timedRun(second))
    print("PAIR \(first.id) \(format(a)) \(second.id) \(format(b)) ratio \(format(a / b))")
    ratios.append(a / b)
  }
  ratios.sort()
  print(
    "\(first.id) / \(second.id): median ratio \(format(ratios[ratios.count / 2]))"
      + " (min \(format(ratios.first!)), max \(format(ratios.last!)); \(ratios.count) pairs)")
  print("MEASURED \(first.id)/\(second.id) \(format(ratios[ratios.count / 2]))")
  exit(0)
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
    if let anonymous = measured.anonymousBytesPerSystem, let fileBacked = measured.fileBackedBytesPerSystem {
      print(
        "W4  resident per system: \(Int(anonymous)) anonymous (the heap), \(Int(fileBacked)) file-backed"
          + " (code and read-only data read in for the first time while the systems were made)")
    }
    print("MEASURED W4 \(Int(measured.residentBytesPerSystem.rounded()))")
  case "W5", "W5-tasks":
    // One run per process: a second run in the same process would find the
    // allocator's arenas of the first one (made on other threads) still
    // mapped, and the peak would say more about glibc than about systems.
    let tasks = id == "W5" ? Scale.taskCount : Scale.systemCount
    let run = await Scale.measure(tasks: tasks)
    let events = Scale.systemCount * Scale.eventsPerSystem
    print(
      "\(id)  \(Scale.systemCount) systems x \(Scale.eventsPerSystem) events from \(tasks) tasks:"
        + " total \(run.total) (making \(run.making), sending \(run.sending));"
        + " peak resident \(mebibytes(run.peakResidentBytes)), resident after making"
        + " \(mebibytes(run.residentAfterMaking)) and after sending \(mebibytes(run.residentAfterSending))")
    print("MEASURED \(id) \(format(nanoseconds(run.total) / Double(events)))")
    print("TOTAL \(id) \(format(nanoseconds(run.total) / 1e9)) \(run.peakResidentBytes.map { "\($0)" } ?? "-")")
  default:
    let workload = measurable.first { $0.id == id }!
    if !once { _ = await workload.makeTrial().timed() }  // warm-up
    var perOperation: [Double] = []
    for _ in 0..<(once ? 1 : workload.runs) { perOperation.append(await timedRun(workload)) }
    perOperation.sort()
    let median = perOperation[perOperation.count / 2]
    print(
      "\(workload.id)  \(workload.summary): median \(format(median)) ns/op"
        + " (min \(format(perOperation.first!)), max \(format(perOperation.last!)); \(perOperation.count) runs)")
    print("MEASURED \(workload.id) \(format(median))")
  }
}
