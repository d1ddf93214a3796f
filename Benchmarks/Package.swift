// swift-tools-version:6.1
import PackageDescription

// The benchmark package: a package of its own, so that a user of the library
// never resolves or builds it. It depends on the library by path; the name
// makes the dependency `FeedbackLoop` whatever the clone's folder is called
// (a path dependency is otherwise named after its folder).
//
//   swift package --allow-writing-to-directory .benchmarkBaselines benchmark
//     runs the package-benchmark suite (wall clock, mallocs, ARC per iteration;
//     ARC counts where the Swift runtime's hooks work, see the suite);
//   ./run
//     builds in release mode, times every workload with the `timings`
//     executable and prints one RESULT line per workload.
let package = Package(
  name: "FeedbackLoopBenchmarks",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
  dependencies: [
    .package(name: "FeedbackLoop", path: ".."),
    .package(url: "https://github.com/ordo-one/benchmark", from: "1.38.1", traits: ["MallocInterposer"]),
    // HashTreeCollections: W6 keeps its keys in a TreeSet.
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    // W1metrics-memory: swift-metrics' in-memory backend.
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    // W1metrics-prometheus: a production backend, in memory.
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // W1spans-noop and W1spans-traced: the sender's service context.
    .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
  ],
  targets: [
    // The workloads W0...W6, shared by the suite and the timings executable.
    .target(
      name: "Workloads",
      dependencies: [
        "CBenchmarkSupport",
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDeclarative", package: "FeedbackLoop"),
        // W12 to W14: the UI store on the main actor.
        .product(name: "FeedbackLoopUI", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopCycle", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDebugging", package: "FeedbackLoop"),
        // W1metrics-noop and W1metrics-memory.
        .product(name: "FeedbackLoopTelemetry", package: "FeedbackLoop"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "MetricsTestKit", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
        .product(name: "HashTreeCollections", package: "swift-collections"),
      ]
    ),
    // glibc's mallinfo2, which Swift's Glibc module does not show, and a
    // plain lock for the reference figures.
    .target(name: "CBenchmarkSupport"),
    // Times every workload (ContinuousClock, median of several runs) and
    // prints the RESULT lines.
    .executableTarget(
      name: "timings",
      dependencies: ["Workloads"]
    ),
    // The package-benchmark suite: the same workloads.
    .executableTarget(
      name: "FeedbackLoopBenchmarks",
      dependencies: [
        "Workloads",
        .product(name: "Benchmark", package: "benchmark"),
      ],
      path: "Benchmarks/FeedbackLoopBenchmarks",
      plugins: [.plugin(name: "BenchmarkPlugin", package: "benchmark")]
    ),
  ],
  swiftLanguageModes: [.v6]
)
