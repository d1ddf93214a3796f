// swift-tools-version:6.0
import PackageDescription

// Durable systems spread by id over many processes that share one
// PostgreSQL database: a package of its own, so that only an app that runs a
// cluster resolves and builds postgres-nio (and SwiftNIO under it). It
// depends on the library and on the PostgreSQL journal by path.
let package = Package(
  name: "FeedbackLoopCluster",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
  products: [
    .library(name: "FeedbackLoopCluster", targets: ["FeedbackLoopCluster"])
  ],
  dependencies: [
    .package(name: "FeedbackLoop", path: ".."),
    .package(name: "FeedbackLoopPostgreSQL", path: "../Journals/PostgreSQL"),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/swift-server/swift-service-lifecycle", from: "2.13.0"),
  ],
  targets: [
    .target(
      name: "FeedbackLoopCluster",
      dependencies: [
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopPostgreSQL", package: "FeedbackLoopPostgreSQL"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
    // The failover test's node: a process of its own, killed with SIGKILL.
    .executableTarget(
      name: "cluster-node",
      dependencies: [
        "FeedbackLoopCluster",
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopPostgreSQL", package: "FeedbackLoopPostgreSQL"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
        .product(name: "ServiceLifecycle", package: "swift-service-lifecycle"),
      ]
    ),
    // The workloads S1–S3 (`./benchmark` runs them in release mode).
    .executableTarget(
      name: "cluster-benchmarks",
      dependencies: [
        "FeedbackLoopCluster",
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopPostgreSQL", package: "FeedbackLoopPostgreSQL"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "FeedbackLoopClusterTests",
      dependencies: [
        "FeedbackLoopCluster",
        "cluster-node",
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopPostgreSQL", package: "FeedbackLoopPostgreSQL"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
