// swift-tools-version:6.0
import PackageDescription

let package = Package(
  name: "FeedbackLoop",
  platforms: [.macOS(.v14), .iOS(.v17), .tvOS(.v17), .watchOS(.v10)],
  products: [
    .library(name: "FeedbackLoop", targets: ["FeedbackLoop"]),
    .library(name: "FeedbackLoopTesting", targets: ["FeedbackLoopTesting"]),
  ],
  dependencies: [
    .package(url: "https://github.com/apple/swift-log", from: "1.16.2"),
    .package(url: "https://github.com/apple/swift-collections", from: "1.6.0"),
  ],
  targets: [
    .target(name: "CFeedbackLoopShims"),
    .target(
      name: "FeedbackLoop",
      dependencies: [
        "CFeedbackLoopShims",
        .product(name: "Logging", package: "swift-log"),
        .product(name: "DequeModule", package: "swift-collections"),
      ]
    ),
    .target(
      name: "FeedbackLoopTesting",
      dependencies: [
        "FeedbackLoop",
        .product(name: "DequeModule", package: "swift-collections"),
      ]
    ),
    .testTarget(
      name: "FeedbackLoopTests",
      dependencies: ["FeedbackLoop", "FeedbackLoopTesting"]
    ),
  ],
  swiftLanguageModes: [.v6]
)
