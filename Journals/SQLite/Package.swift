// swift-tools-version:6.1
import PackageDescription

// The SQLite journal: the embedded backend of durable systems, a package of
// its own so that no app resolves GRDB unless it uses it. It depends on the
// library by path.
//
// GRDB.swift, not vapor/sqlite-nio: GRDB builds and passes the journal
// conformance suite here on Linux against the system's SQLite
// (`libsqlite3-dev`, which Scripts/install-sqlite installs), and on Apple
// platforms it uses the platform's SQLite, the one an iOS or macOS app
// ships anyway; sqlite-nio bundles its own SQLite and brings SwiftNIO into
// every app that stores a journal.
let package = Package(
  name: "FeedbackLoopSQLite",
  platforms: [.macOS(.v15), .iOS(.v18), .tvOS(.v18), .watchOS(.v11)],
  products: [
    .library(name: "FeedbackLoopSQLite", targets: ["FeedbackLoopSQLite"])
  ],
  dependencies: [
    .package(name: "FeedbackLoop", path: "../.."),
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
  ],
  targets: [
    .target(
      name: "FeedbackLoopSQLite",
      dependencies: [
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    // The crash test's writer: appends batches in a loop and prints each
    // acknowledged batch, until the test kills it.
    .executableTarget(
      name: "journal-crash-writer",
      dependencies: ["FeedbackLoopSQLite"]
    ),
    // The durable crash test's host: many durable systems with effects in
    // flight, acknowledging events until the test kills it (CrashHost.swift,
    // shared with the PostgreSQL package).
    .executableTarget(
      name: "durable-crash-host",
      dependencies: [
        "FeedbackLoopSQLite",
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
      ]
    ),
    .testTarget(
      name: "FeedbackLoopSQLiteTests",
      dependencies: [
        "FeedbackLoopSQLite",
        "journal-crash-writer",
        "durable-crash-host",
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDurableTesting", package: "FeedbackLoop"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
