// swift-tools-version:6.0
import PackageDescription

// The PostgreSQL journal of durable systems: a package of its own, so that
// only an app that stores its systems in PostgreSQL resolves and builds
// postgres-nio (and SwiftNIO under it). It depends on the library by path.
let package = Package(
  name: "FeedbackLoopPostgreSQL",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
  products: [
    .library(name: "FeedbackLoopPostgreSQL", targets: ["FeedbackLoopPostgreSQL"])
  ],
  dependencies: [
    .package(name: "FeedbackLoop", path: "../.."),
    .package(url: "https://github.com/vapor/postgres-nio", from: "1.33.2"),
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
  ],
  targets: [
    .target(
      name: "FeedbackLoopPostgreSQL",
      dependencies: [
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    // The durable crash test's host: many durable systems with effects in
    // flight, acknowledging events until the test kills it (CrashHost.swift
    // and CrashModel.swift are the SQLite package's, linked).
    .executableTarget(
      name: "durable-crash-host",
      dependencies: [
        "FeedbackLoopPostgreSQL",
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
        .product(name: "Logging", package: "swift-log"),
      ]
    ),
    .testTarget(
      name: "FeedbackLoopPostgreSQLTests",
      dependencies: [
        "FeedbackLoopPostgreSQL",
        "durable-crash-host",
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDurableTesting", package: "FeedbackLoop"),
        .product(name: "PostgresNIO", package: "postgres-nio"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
