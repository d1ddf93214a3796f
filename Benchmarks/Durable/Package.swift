// swift-tools-version:6.1
import PackageDescription

// The durable workloads D1–D6: a package of its own, beside the main
// benchmark package rather than in it, so that `Benchmarks/run` never
// resolves or builds GRDB, SwiftNIO and postgres-nio (minutes of release
// build on two cores) for workloads that do not use them. It depends on the
// library and on the two journal packages by path; GRDB and postgres-nio are
// named again, at the journals' versions, for the raw baselines.
//
//   ./run        builds in release mode, runs every workload twice (D3 on a
//                PostgreSQL server of its own) and prints the RESULT lines.
let package = Package(
  name: "FeedbackLoopDurableBenchmarks",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
  dependencies: [
    .package(name: "FeedbackLoop", path: "../.."),
    .package(name: "SQLite", path: "../../Journals/SQLite"),
    .package(name: "PostgreSQL", path: "../../Journals/PostgreSQL"),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
  ],
  targets: [
    // glibc's mallinfo2 for D6, which Swift's Glibc module does not show.
    .target(name: "CDurableSupport"),
    // Times the workloads and prints MEASURED lines for `run`.
    .executableTarget(
      name: "durable-timings",
      dependencies: [
        "CDurableSupport",
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopSQLite", package: "SQLite"),
        .product(name: "FeedbackLoopPostgreSQL", package: "PostgreSQL"),
        .product(name: "GRDB", package: "GRDB.swift"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
