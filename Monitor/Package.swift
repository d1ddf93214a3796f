// swift-tools-version:6.1
import PackageDescription

// The monitor: a web page that shows a running system's timeline and drives
// it (time travel, events, playback), a package of its own so that no app
// resolves Hummingbird for it. It depends on the library by path.
//
//   swift run --package-path Monitor feedbackloop-monitor              waits for apps
//   swift run --package-path Monitor feedbackloop-monitor FILE.jsonl   opens a session
//   swift run --package-path Monitor feedbackloop-monitor JOURNAL.sqlite [--system ID]
//                                                                      opens a durable system's journal
//
// An app streams its timeline with the library's FeedbackLoopMonitorClient
// product, which it adds with the library's URL alone (no path, no server):
// the client and the protocol both ends speak live in the root package, and
// this package uses them as products, as any other package would.
let package = Package(
  name: "FeedbackLoopMonitor",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "feedbackloop-monitor", targets: ["feedbackloop-monitor"])
  ],
  dependencies: [
    .package(name: "FeedbackLoop", path: ".."),
    .package(url: "https://github.com/hummingbird-project/hummingbird", exact: "2.28.1"),
    .package(url: "https://github.com/hummingbird-project/hummingbird-websocket", exact: "2.8.1"),
    .package(url: "https://github.com/apple/swift-nio", from: "2.101.2"),
    .package(url: "https://github.com/apple/swift-nio-extras", from: "1.35.2"),
    .package(url: "https://github.com/apple/swift-argument-parser", from: "1.8.2"),
    // The SQLite journal, so that the monitor opens a durable system's journal as a recorded session.
    .package(name: "FeedbackLoopSQLite", path: "../Journals/SQLite"),
    // The version the SQLite journal pins: the monitor reads a file's tables with it, read-only, before
    // opening it as a journal (which would create the journal's tables in any SQLite file).
    .package(url: "https://github.com/groue/GRDB.swift", exact: "7.10.0"),
  ],
  targets: [
    // The server: the page's files, its WebSocket, the apps' TCP port. The
    // apps' protocol (JSON lines over TCP) is the library's
    // FeedbackLoopMonitorProtocol, which the client speaks too.
    .target(
      name: "MonitorServer",
      dependencies: [
        .product(name: "FeedbackLoopMonitorProtocol", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDebugging", package: "FeedbackLoop"),
        .product(name: "Hummingbird", package: "hummingbird"),
        .product(name: "HummingbirdCore", package: "hummingbird"),
        .product(name: "HummingbirdWebSocket", package: "hummingbird-websocket"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOHTTP1", package: "swift-nio"),
        .product(name: "NIOExtras", package: "swift-nio-extras"),
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
      ],
      resources: [.copy("Page")]
    ),
    .executableTarget(
      name: "feedbackloop-monitor",
      dependencies: [
        "MonitorServer", .product(name: "ArgumentParser", package: "swift-argument-parser"),
        .product(name: "FeedbackLoopSQLite", package: "FeedbackLoopSQLite"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
    .testTarget(
      name: "MonitorTests",
      dependencies: [
        "MonitorServer",
        .product(name: "FeedbackLoopMonitorClient", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopMonitorProtocol", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopTesting", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDeclarative", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDeclarativeDebugging", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopCycle", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopCycleDebugging", package: "FeedbackLoop"),
        .product(name: "NIOEmbedded", package: "swift-nio"),
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopSQLite", package: "FeedbackLoopSQLite"),
        .product(name: "GRDB", package: "GRDB.swift"),
      ]
    ),
  ],
  swiftLanguageModes: [.v6]
)
