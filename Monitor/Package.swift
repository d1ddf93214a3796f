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
// An app streams its timeline with the FeedbackLoopMonitorClient product.
let package = Package(
  name: "FeedbackLoopMonitor",
  platforms: [.macOS(.v15)],
  products: [
    .executable(name: "feedbackloop-monitor", targets: ["feedbackloop-monitor"]),
    .library(name: "FeedbackLoopMonitorClient", targets: ["FeedbackLoopMonitorClient"]),
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
    // The protocol both ends speak: JSON lines over TCP between app and
    // monitor, JSON messages over a WebSocket between monitor and page.
    .target(
      name: "MonitorProtocol",
      dependencies: [.product(name: "FeedbackLoopDebugging", package: "FeedbackLoop")]
    ),
    // The server: the page's files, its WebSocket, the apps' TCP port.
    .target(
      name: "MonitorServer",
      dependencies: [
        "MonitorProtocol",
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
    // What an app links: a few lines stream its timeline to the monitor.
    .target(
      name: "FeedbackLoopMonitorClient",
      dependencies: [
        "MonitorProtocol",
        .product(name: "FeedbackLoop", package: "FeedbackLoop"),
        .product(name: "FeedbackLoopDebugging", package: "FeedbackLoop"),
        // A journal's timeline, folded through the app's reducer (JournalTimeline).
        .product(name: "FeedbackLoopDurable", package: "FeedbackLoop"),
        .product(name: "NIOCore", package: "swift-nio"),
        .product(name: "NIOPosix", package: "swift-nio"),
        .product(name: "NIOExtras", package: "swift-nio-extras"),
      ]
    ),
    .testTarget(
      name: "MonitorTests",
      dependencies: [
        "MonitorServer", "FeedbackLoopMonitorClient",
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
