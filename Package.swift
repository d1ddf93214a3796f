// swift-tools-version:6.0
import PackageDescription

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
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
    .package(url: "https://github.com/pointfreeco/swift-custom-dump", from: "1.7.3"),
    .package(url: "https://github.com/OpenCombine/OpenCombine", from: "0.14.0"),
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
    .testTarget(
      name: "FeedbackLoopTests",
      dependencies: [
        "FeedbackLoop", "FeedbackLoopTesting",
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
  ],
  swiftLanguageModes: [.v6]
)
