// swift-tools-version:6.0
import PackageDescription

import class Foundation.ProcessInfo

// Every dependency that a library product uses is resolved, and built, by
// every app that uses the library: name only what the products need. A
// dependency that only test targets use (swift-property-based) is resolved
// only when this package is the root, never by an app. Examples and
// benchmarks are packages of their own (Examples/, Benchmarks/).
let package = Package(
  name: "FeedbackLoop",
  // macOS 15 / iOS 18: Swift's TaskExecutor (the testing kit's
  // ManualTaskExecutor) and Synchronization's Mutex and Atomic (README,
  // "Platforms").
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
  products: [
    .library(name: "FeedbackLoop", targets: ["FeedbackLoop"]),
    .library(name: "FeedbackLoopTesting", targets: ["FeedbackLoopTesting"]),
    .library(name: "FeedbackLoopDeclarative", targets: ["FeedbackLoopDeclarative"]),
    .library(name: "FeedbackLoopUI", targets: ["FeedbackLoopUI"]),
    .library(name: "FeedbackLoopChartTesting", targets: ["FeedbackLoopChartTesting"]),
    .library(name: "FeedbackLoopCycle", targets: ["FeedbackLoopCycle"]),
    .library(name: "FeedbackLoopCycleDrivers", targets: ["FeedbackLoopCycleDrivers"]),

    .library(name: "FeedbackLoopDebugging", targets: ["FeedbackLoopDebugging"]),
    .library(name: "FeedbackLoopCycleDebugging", targets: ["FeedbackLoopCycleDebugging"]),
    .library(name: "FeedbackLoopDeclarativeDebugging", targets: ["FeedbackLoopDeclarativeDebugging"]),
    .library(name: "FeedbackLoopCompatibility", targets: ["FeedbackLoopCompatibility"]),
    .library(name: "FeedbackLoopTelemetry", targets: ["FeedbackLoopTelemetry"]),
    .library(name: "FeedbackLoopDurable", targets: ["FeedbackLoopDurable"]),
    .library(name: "FeedbackLoopDurableTesting", targets: ["FeedbackLoopDurableTesting"]),
    .library(name: "FeedbackLoopDurableUI", targets: ["FeedbackLoopDurableUI"]),
    .library(name: "FeedbackLoopMonitorClient", targets: ["FeedbackLoopMonitorClient"]),
    .library(name: "FeedbackLoopMonitorProtocol", targets: ["FeedbackLoopMonitorProtocol"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
    // FeedbackLoopTelemetry only: the server ecosystem's metrics and tracing
    // APIs (the backends are the app's choice).
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-distributed-tracing", from: "1.7.3"),
    // Test targets only.
    .package(url: "https://github.com/x-sheep/swift-property-based", from: "2.0.1"),
  ],
  targets: [
    // Layer 1: the runtime.
    .target(name: "CFeedbackLoopShims"),
    .target(
      name: "FeedbackLoop",
      dependencies: [
        "CFeedbackLoopShims",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "HashTreeCollections", package: "swift-collections"),
      ]
    ),
    // Layer 2: deterministic tests of whole loops.
    .target(
      name: "FeedbackLoopTesting",
      dependencies: [
        "FeedbackLoop",
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // Layer 3: the Feedbacks-style result-builder DSL.
    .target(
      name: "FeedbackLoopDeclarative",
      dependencies: ["FeedbackLoop"]
    ),
    // Model-based tests of statecharts: for test targets only, so that the
    // testing kit does not bring the declarative layer into every test.
    .target(
      name: "FeedbackLoopChartTesting",
      dependencies: ["FeedbackLoop", "FeedbackLoopDeclarative", "FeedbackLoopTesting"]
    ),
    // Layer 4: the Observation store, SwiftUI and Combine bridges
    // (OpenCombine stands in for Combine where Combine does not exist).
    .target(
      name: "FeedbackLoopUI",
      dependencies: [
        "FeedbackLoop",
        .product(name: "OpenCombine", package: "OpenCombine", condition: .when(platforms: [.linux])),
      ]
    ),
    // Layer 5: Cycle: drivers, frame and event filters, the router, animations.
    .target(
      name: "FeedbackLoopCycle",
      dependencies: ["FeedbackLoop", .product(name: "DequeModule", package: "swift-collections")]
    ),
    // The drivers every Cycle app needs: a clock, any AsyncSequence, the
    // Observation (SwiftUI) screen, and a queue of events that serves more
    // than one run. No dependency beyond Cycle's.
    .target(
      name: "FeedbackLoopCycleDrivers",
      dependencies: ["FeedbackLoop", "FeedbackLoopCycle", .product(name: "DequeModule", package: "swift-collections")]
    ),
    // Layer 6: debugging: timelines, recorders, replay, time travel, fixtures and the
    // inspection stream, all through the core's monitor hook.
    .target(
      name: "FeedbackLoopDebugging",
      dependencies: [
        "FeedbackLoop",
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ]
    ),
    // The debugging tools for the library's own event types: a Cycle
    // application's and a statechart's events carry time travel's jumps. A
    // target of their own, so that neither Cycle nor the declarative layer
    // brings the debugging layer (and Foundation) into every app, and the
    // debugging layer knows neither (see the Architecture article).
    .target(
      name: "FeedbackLoopCycleDebugging",
      dependencies: ["FeedbackLoopCycle", "FeedbackLoopDebugging"]
    ),
    .target(
      name: "FeedbackLoopDeclarativeDebugging",
      dependencies: ["FeedbackLoopDeclarative", "FeedbackLoopDebugging"]
    ),
    // The spellings of RxFeedback, ReactiveFeedback and the Feedbacks
    // library, forwarding to FeedbackLoop's own, for code moved from them.
    .target(
      name: "FeedbackLoopCompatibility",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopDeclarative", .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // Layer 7: telemetry: swift-metrics and swift-distributed-tracing,
    // through the core's monitor hook. The durable layer too, for the
    // journal's metrics (a wrapper of its `Journal` protocol): it brings no
    // package beyond the core's swift-log, only its own module (and
    // Foundation, which it uses for its encoded records).
    .target(
      name: "FeedbackLoopTelemetry",
      dependencies: [
        "FeedbackLoop",
        "FeedbackLoopDurable",
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Tracing", package: "swift-distributed-tracing"),
      ]
    ),
    // Layer 8: durable systems: the journal contract, the in-memory journal
    // and the durable system. Backends with a heavy dependency (SQLite,
    // PostgreSQL) are packages of their own, so that no app resolves them
    // unless it uses them.
    .target(
      name: "FeedbackLoopDurable",
      dependencies: ["FeedbackLoop", .product(name: "Logging", package: "swift-log")]
    ),
    // The journal conformance suite: the checks every backend's tests run
    // (the SQLite and PostgreSQL packages' too). No test framework: a check
    // throws, so that any framework can run it.
    // The replay check too: every stored system through today's reducer
    // and migrations, with CustomDump's diff of a diverging snapshot (the
    // debugging layer's replay shows its divergences the same way).
    .target(
      name: "FeedbackLoopDurableTesting",
      dependencies: ["FeedbackLoopDurable", .product(name: "CustomDump", package: "swift-custom-dump")]
    ),
    // The UI layer's store over a durable system: a target of its own, so
    // that a server's durable systems do not build the UI layer (and
    // OpenCombine on Linux), nor an app's store the durable layer.
    .target(
      name: "FeedbackLoopDurableUI",
      dependencies: ["FeedbackLoopDurable", "FeedbackLoopUI"]
    ),
    // The monitor's wire protocol: JSON lines over TCP between an app and
    // the monitor. A product, not an internal target, because both ends
    // speak it: the client here, and the monitor's server in Monitor/, a
    // package that can use only this package's products. One definition of
    // the messages, so that the two ends cannot drift apart. Apps need not
    // name it: the client uses it without showing it.
    .target(
      name: "FeedbackLoopMonitorProtocol",
      dependencies: ["FeedbackLoop", "FeedbackLoopDebugging"]
    ),
    // What an app links to stream its timeline to the monitor: here, and
    // not in Monitor/, so that an app adds it with the library's URL alone,
    // on every platform the library declares. It reaches the monitor over
    // the platform's own sockets (POSIX: Glibc, Darwin), with no network
    // library: SwiftNIO would have every app that adds the client resolve
    // and build NIO. The monitor's server (Hummingbird) stays in Monitor/.
    .target(
      name: "FeedbackLoopMonitorClient",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopDebugging", "FeedbackLoopMonitorProtocol",
        // A journal's timeline, folded through the app's reducer (JournalTimeline).
        "FeedbackLoopDurable",
      ]
    ),
    // The shared scenarios (the search, the skip-intro, the
    // player chart), the articles' code check and the test harness, written
    // once for the test targets. Not a product: no app sees it.
    .target(
      name: "FeedbackLoopScenarios",
      dependencies: ["FeedbackLoop", "FeedbackLoopTesting", "FeedbackLoopDeclarative"],
      path: "Tests/Scenarios"
    ),
    .testTarget(
      name: "FeedbackLoopTests",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopTesting", "FeedbackLoopScenarios",
        .product(name: "HashTreeCollections", package: "swift-collections"),
      ]
    ),
    .testTarget(
      name: "FeedbackLoopReliabilityTests",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopTesting", "CFeedbackLoopShims",
        .product(name: "PropertyBased", package: "swift-property-based"),
      ]
    ),
    .testTarget(
      name: "FeedbackLoopTestingTests",
      dependencies: ["FeedbackLoop", "FeedbackLoopTesting", "FeedbackLoopScenarios"]
    ),
    .testTarget(
      name: "FeedbackLoopDeclarativeTests",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopDeclarative", "FeedbackLoopTesting", "FeedbackLoopChartTesting",
        "FeedbackLoopScenarios",
      ]
    ),
    .testTarget(
      name: "FeedbackLoopUITests",
      dependencies: ["FeedbackLoop", "FeedbackLoopUI", "FeedbackLoopTesting"]
    ),
    .testTarget(
      name: "FeedbackLoopCycleDriversTests",
      dependencies: ["FeedbackLoop", "FeedbackLoopCycle", "FeedbackLoopCycleDrivers", "FeedbackLoopTesting"]
    ),
    .testTarget(
      name: "FeedbackLoopCycleTests",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopCycle", "FeedbackLoopTesting",
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ]
    ),
    .testTarget(
      name: "FeedbackLoopCompatibilityTests",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopDeclarative", "FeedbackLoopCompatibility", "FeedbackLoopTesting",
        "FeedbackLoopScenarios", .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "FeedbackLoopDebuggingTests",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopDebugging", "FeedbackLoopTesting", "FeedbackLoopScenarios",
        "FeedbackLoopCycle", "FeedbackLoopDeclarative", "FeedbackLoopCycleDebugging",
        "FeedbackLoopDeclarativeDebugging",
      ]
    ),
    .testTarget(
      name: "FeedbackLoopTelemetryTests",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopTelemetry", "FeedbackLoopTesting", "FeedbackLoopDurable",
        .product(name: "MetricsTestKit", package: "swift-metrics"),
        .product(name: "InMemoryTracing", package: "swift-distributed-tracing"),
      ]
    ),
    .testTarget(
      name: "FeedbackLoopDurableTests",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopDurable", "FeedbackLoopDurableTesting", "FeedbackLoopTesting",
        "FeedbackLoopScenarios", "FeedbackLoopUI", "FeedbackLoopDurableUI",
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The tutorial's code, every step of it (Scripts/tutorial-code writes
    // Steps/ from the catalog's Resources), so that a changed API breaks
    // the build, not the reader.
    .testTarget(
      name: "FeedbackLoopTutorialTests",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopTesting", "FeedbackLoopUI", "FeedbackLoopDebugging", "FeedbackLoopDeclarative",
        "FeedbackLoopScenarios",
      ]
    ),
    .testTarget(
      name: "FeedbackLoopMonitorClientTests",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopDebugging", "FeedbackLoopMonitorClient", "FeedbackLoopMonitorProtocol",
        "FeedbackLoopTesting",
      ]
    ),
    .testTarget(
      name: "FeedbackLoopDurableTestingTests",
      dependencies: ["FeedbackLoopDurable", "FeedbackLoopDurableTesting", "FeedbackLoop"]
    ),
  ],
  swiftLanguageModes: [.v6]
)

// The Swift Package Index builds the hosted documentation with
// swift-docc-plugin and sets SPI_GENERATE_DOCS while it does: only then is the
// plugin added, so that no app resolves it. Scripts/docs needs no plugin (it
// runs the toolchain's docc).
if ProcessInfo.processInfo.environment["SPI_GENERATE_DOCS"] != nil {
  package.dependencies.append(.package(url: "https://github.com/swiftlang/swift-docc-plugin", from: "1.5.0"))
}
