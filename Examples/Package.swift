// swift-tools-version:6.2
import PackageDescription

// The examples: a package of their own, so that a user of the library never
// resolves or builds what only they need (an HTTP server and client, an
// argument parser). It depends on the library by path; the name makes the
// dependency `FeedbackLoop` whatever the clone's folder is called.
//
//   swift run --package-path Examples feedbackloop-examples         lists them
//   swift run --package-path Examples feedbackloop-examples search  runs one
//   swift run --package-path Examples feedbackloop-examples search --monitor 7071 --secret S
//                                                                   streams it to a running monitor
//   swift test --package-path Examples                              tests them
//   Examples/Scripts/cluster-demo                                   three cluster-service nodes, one killed
//
// Each example is a small library (State, Event, reducer, feedbacks and the
// dependencies they need), tested with FeedbackLoopTesting; the terminal code
// lives apart, in ExampleRunner.
let package = Package(
  name: "FeedbackLoopExamples",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "feedbackloop-examples", targets: ["feedbackloop-examples"]),
    .executable(name: "cluster-service", targets: ["cluster-service"]),
  ],
  dependencies: [
    .package(name: "FeedbackLoop", path: ".."),
    // The SQLite journal, which the durable example stores its events in.
    .package(name: "FeedbackLoopSQLite", path: "../Journals/SQLite"),
    // The cluster, and the PostgreSQL journal it stores its systems in, for
    // the cluster service (postgres-nio comes with them).
    .package(name: "FeedbackLoopCluster", path: "../Cluster"),
    .package(name: "FeedbackLoopPostgreSQL", path: "../Journals/PostgreSQL"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
    .package(url: "https://github.com/apple/swift-http-types", from: "1.5.1"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    .package(url: "https://github.com/hummingbird-project/hummingbird", from: "2.28.1"),
    .package(url: "https://github.com/swift-server/async-http-client", from: "1.37.0"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    // The search server's `GET /metrics`: the Prometheus text of the figures
    // the telemetry monitors count. Small: one module over swift-metrics and
    // swift-atomics, which Hummingbird and SwiftNIO bring already.
    .package(url: "https://github.com/swift-server/swift-prometheus", from: "2.4.1"),
    // `MetricsSystem.bootstrap(_:)`, which the search example calls once.
    .package(url: "https://github.com/apple/swift-metrics", from: "2.13.0"),
  ],
  targets: [
    // ReactiveFeedback's counter: two buttons, increment and decrement.
    .target(name: "CounterExample", dependencies: [.product(name: "FeedbackLoop", package: "FeedbackLoop")]),
    // Seed 000's paginated search, and its HTTP client.
    .target(
      name: "SearchExample",
      dependencies: [
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ]
    ),
    // The search API the search example talks to: a Hummingbird server over a
    // generated catalogue of movies.
    .target(
      name: "SearchServer",
      dependencies: [
        "SearchExample",
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ]
    ),
    // The video player: the HUD's auto-hide and the skip-intro countdown.
    .target(name: "PlayerExample", dependencies: [.product(name: "FeedbackLoop", package: "FeedbackLoop")]),
    // The video player as a statechart (the declarative layer).
    .target(
      name: "PlayerChartExample",
      dependencies: [
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDeclarative", package: "FeedbackLoop"),
      ]
    ),
    // Seed 004's volume regulator.
    .target(name: "VolumeExample", dependencies: [.product(name: "FeedbackLoop", package: "FeedbackLoop")]),
    // Seed 000's stateful environment: signing in, with a token that expires.
    .target(name: "SignInExample", dependencies: [.product(name: "FeedbackLoop", package: "FeedbackLoop")]),
    // The sign-in, search and player examples composed into one app, plus
    // downloads: child systems whose lives follow the app's state.
    .target(
      name: "AppExample",
      dependencies: [
        "SignInExample", "SearchExample", "PlayerExample", .product(name: "FeedbackLoop", package: "FeedbackLoop"),
      ]
    ),
    // Seed 002 (Cycle.swift): the drivers both Cycle examples use, the
    // Counter sample and the animated integer.
    .target(
      name: "CycleDrivers",
      dependencies: [
        .product(name: "FeedbackLoopCycle", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopCycleDrivers", package: "FeedbackLoop"),
      ]
    ),
    .target(
      name: "CycleCounterExample",
      dependencies: ["CycleDrivers", .product(name: "FeedbackLoopCycle", package: "FeedbackLoop")]
    ),
    .target(
      name: "AnimatedIntegerExample",
      dependencies: ["CycleDrivers", .product(name: "FeedbackLoopCycle", package: "FeedbackLoop")]
    ),
    // A durable download manager on the SQLite journal: retries, a deadline,
    // an idempotency key; killed and restarted, it resumes.
    .target(
      name: "DurableDownloadsExample",
      dependencies: [
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopSQLite", package: "FeedbackLoopSQLite"),
      ]
    ),
    // Tallies by id on a cluster of nodes that share a PostgreSQL database,
    // and their HTTP API (Hummingbird), which any node answers.
    .target(
      name: "ClusterServiceExample",
      dependencies: [
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopCluster", package: "FeedbackLoopCluster"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ]
    ),
    // One node of the cluster service; Scripts/cluster-demo starts three.
    .executableTarget(
      name: "cluster-service",
      dependencies: [
        "ClusterServiceExample",
        .product(name: "FeedbackLoopCluster", package: "FeedbackLoopCluster"),
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopPostgreSQL", package: "FeedbackLoopPostgreSQL"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
      ]
    ),
    // The terminal side: the timeline, keys, scripted sessions, the command.
    .target(
      name: "ExampleRunner",
      dependencies: [
        "CounterExample", "SearchExample", "SearchServer", "PlayerExample", "VolumeExample", "SignInExample",
        "PlayerChartExample", "CycleDrivers", "CycleCounterExample", "AnimatedIntegerExample",
        "AppExample", "DurableDownloadsExample",
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDeclarative", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopCycle", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopTesting", package: "FeedbackLoop"),
        .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "FeedbackLoopDebugging", package: "FeedbackLoop"),
        // The monitor's client, so that `--monitor` streams any example to a running monitor.
        .product(name: "FeedbackLoopMonitorClient", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopSQLite", package: "FeedbackLoopSQLite"),
        .product(name: "FeedbackLoopTelemetry", package: "FeedbackLoop"),
        .product(name: "Metrics", package: "swift-metrics"),
        .product(name: "Prometheus", package: "swift-prometheus"),
      ]
    ),
    .executableTarget(
      name: "feedbackloop-examples",
      dependencies: ["ExampleRunner", .product(name: "ArgumentParser", package: "swift-argument-parser")]
    ),
    .testTarget(
      name: "CounterExampleTests",
      dependencies: ["CounterExample", .product(name: "FeedbackLoopTesting", package: "FeedbackLoop")]
    ),
    .testTarget(
      name: "SearchExampleTests",
      dependencies: [
        "SearchExample", "SearchServer", .product(name: "FeedbackLoopTesting", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopTelemetry", package: "FeedbackLoop"),
        .product(name: "Prometheus", package: "swift-prometheus"),
        .product(name: "AsyncHTTPClient", package: "async-http-client"),
      ]
    ),
    .testTarget(
      name: "PlayerExampleTests",
      dependencies: ["PlayerExample", .product(name: "FeedbackLoopTesting", package: "FeedbackLoop")]
    ),
    .testTarget(
      name: "PlayerChartExampleTests",
      dependencies: [
        "PlayerChartExample",
        .product(name: "FeedbackLoopDeclarative", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopTesting", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopChartTesting", package: "FeedbackLoop"),
      ]
    ),
    .testTarget(
      name: "VolumeExampleTests",
      dependencies: ["VolumeExample", .product(name: "FeedbackLoopTesting", package: "FeedbackLoop")]
    ),
    .testTarget(
      name: "SignInExampleTests",
      dependencies: ["SignInExample", .product(name: "FeedbackLoopTesting", package: "FeedbackLoop")]
    ),
    .testTarget(
      name: "AppExampleTests",
      dependencies: ["AppExample", .product(name: "FeedbackLoopTesting", package: "FeedbackLoop")]
    ),
    // Every example's scripted session recorded and replayed (FeedbackLoopDebugging, G13).
    .testTarget(
      name: "RecordedSessionTests",
      dependencies: [
        "CounterExample", "SearchExample", "PlayerExample", "VolumeExample", "SignInExample",
        .product(name: "FeedbackLoopTesting", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDebugging", package: "FeedbackLoop"),
      ]
    ),
    .testTarget(
      name: "CycleCounterExampleTests",
      dependencies: [
        "CycleCounterExample", "CycleDrivers", .product(name: "FeedbackLoopTesting", package: "FeedbackLoop"),
      ]
    ),
    .testTarget(
      name: "AnimatedIntegerExampleTests",
      dependencies: [
        "AnimatedIntegerExample", "CycleDrivers", .product(name: "FeedbackLoopTesting", package: "FeedbackLoop"),
      ]
    ),
    .testTarget(
      name: "DurableDownloadsExampleTests",
      dependencies: [
        "DurableDownloadsExample",
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopTesting", package: "FeedbackLoop"),
      ]
    ),
    // The cluster service's routes and tally, without PostgreSQL.
    .testTarget(
      name: "ClusterServiceExampleTests",
      dependencies: [
        "ClusterServiceExample",
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdTesting", package: "hummingbird"),
        .product(name: "HTTPTypes", package: "swift-http-types"),
      ]
    ),
    .testTarget(
      name: "ExampleRunnerTests",
      dependencies: [
        // The durable session's test runs the command, which `--build-tests` then builds.
        "ExampleRunner", "feedbackloop-examples", "DurableDownloadsExample",
        .product(name: "FeedbackLoopTesting", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDebugging", package: "FeedbackLoop"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
