// swift-tools-version:6.0
import PackageDescription

// Every dependency named here is resolved by every app that uses the library:
// only what the library products need. Examples and benchmarks are packages
// of their own (Examples/, Benchmarks/).
let package = Package(
  name: "FeedbackLoop",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  products: [
    .library(name: "FeedbackLoop", targets: ["FeedbackLoop"]),
    .library(name: "FeedbackLoopTesting", targets: ["FeedbackLoopTesting"]),
    .library(name: "FeedbackLoopDeclarative", targets: ["FeedbackLoopDeclarative"]),
    .library(name: "FeedbackLoopUI", targets: ["FeedbackLoopUI"]),
    .library(name: "FeedbackLoopDebugging", targets: ["FeedbackLoopDebugging"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
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
      ]
    ),
    // Layer 3: the Feedbacks-style result-builder DSL.
    .target(
      name: "FeedbackLoopDeclarative",
      dependencies: ["FeedbackLoop"]
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
    // Debugging: timelines, recorders, replay, time travel, fixtures and the
    // inspection stream, all through the core's monitor hook.
    .target(
      name: "FeedbackLoopDebugging",
      dependencies: [
        "FeedbackLoop",
        .product(name: "DequeModule", package: "swift-collections"),
        .product(name: "CustomDump", package: "swift-custom-dump"),
      ]
    ),
    .testTarget(
      name: "FeedbackLoopTests",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopTesting",
        .product(name: "HashTreeCollections", package: "swift-collections"),
      ]
    ),
    .testTarget(
      name: "FeedbackLoopReliabilityTests",
      dependencies: ["FeedbackLoop", "FeedbackLoopTesting"]
    ),
    .testTarget(
      name: "FeedbackLoopTestingTests",
      dependencies: ["FeedbackLoop", "FeedbackLoopTesting"]
    ),
    .testTarget(
      name: "FeedbackLoopDeclarativeTests",
      dependencies: ["FeedbackLoop", "FeedbackLoopDeclarative", "FeedbackLoopTesting"]
    ),
    .testTarget(
      name: "FeedbackLoopUITests",
      dependencies: ["FeedbackLoop", "FeedbackLoopUI", "FeedbackLoopTesting"]
    ),
    .testTarget(
      name: "FeedbackLoopDebuggingTests",
      dependencies: ["FeedbackLoop", "FeedbackLoopDebugging", "FeedbackLoopTesting"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
