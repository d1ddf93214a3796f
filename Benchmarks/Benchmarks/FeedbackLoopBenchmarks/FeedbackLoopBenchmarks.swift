// The package-benchmark suite: the workloads of Sources/Workloads, measured
// for wall clock, mallocs and ARC traffic per iteration.
//
//   swift package --allow-writing-to-directory .benchmarkBaselines benchmark
//
// One iteration is one whole run of a workload (1,000,000 events for W0 and
// W1, whose figures are scaled per event; 100,000 events or round trips for
// the others, whose figures are per run: divide by 100,000).
import Benchmark
import Workloads

/// Retain and release counts come from the Swift runtime's hooks, which
/// crash Swift 6.3 on Linux unless package-benchmark's runtime interposer is
/// built (https://github.com/ordo-one/benchmark/issues/349), and the package
/// it needs is not among those this project may use. There, ARC traffic is
/// counted with callgrind instead (BENCHMARKS.md says how).
#if os(Linux) && compiler(>=6.3) && compiler(<6.4)
  let arcMetrics: [BenchmarkMetric] = []
#else
  let arcMetrics: [BenchmarkMetric] = [.retainCount, .releaseCount]
#endif

let benchmarks: @Sendable () -> Void = {
  Benchmark.defaultConfiguration = .init(
    metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident] + arcMetrics,
    warmupIterations: 1,
    maxDuration: .seconds(3),
    maxIterations: 25
  )

  for workload in Workloads.timed + Workloads.references {
    let perEvent = workload.operations == 1_000_000
    let name =
      "\(workload.id) \(workload.summary)" + (perEvent ? " (per event)" : " (per run of \(workload.operations))")
    Benchmark(name, configuration: .init(scalingFactor: perEvent ? .mega : .one)) { benchmark in
      let trial = workload.makeTrial()
      benchmark.startMeasurement()
      await trial.run()
      benchmark.stopMeasurement()
      await trial.finish()
    }
  }

  Benchmark(
    "W4 \(IdleSystems.systemCount) idle systems, 2 feedbacks each (per run)",
    configuration: .init(
      metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident, bytesPerSystem], maxIterations: 5)
  ) { benchmark in
    guard let measured = IdleSystems.measure() else { return }
    benchmark.measurement(bytesPerSystem, Int(measured.allocatedBytesPerSystem.rounded()))
  }

  Benchmark(
    "W5 \(Scale.systemCount) systems, \(Scale.eventsPerSystem) events each from concurrent tasks (per run)",
    configuration: .init(metrics: [.wallClock, .mallocCountTotal, .peakMemoryResident], maxIterations: 3)
  ) { _ in
    _ = await Scale.measure()
  }
}

/// W4's figure: bytes allocated per idle system (mallinfo2). Resident bytes,
/// which `timings W4` reports from a fresh process, mean little here: this
/// process reuses the pages the benchmarks before it freed.
let bytesPerSystem = BenchmarkMetric.custom("allocated bytes per system", useScalingFactor: false)
