import Foundation
import Testing

/// A misuse check says what went wrong in every build: `fatalError` keeps
/// its message in an optimized build, where `precondition` and
/// `preconditionFailure` drop theirs.
@Suite struct MisuseMessageTests {
  /// Checks of the library's own invariants, which no caller can break:
  /// they may stay preconditions.
  static let invariants: [String] = []

  @Test("Every misuse check of FeedbackLoopDeclarative keeps its message in optimized builds")
  func misuseChecksUseFatalError() throws {
    let sources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources/FeedbackLoopDeclarative")
    let offending = try preconditions(under: sources).filter { line in
      !Self.invariants.contains { line.contains($0) }
    }
    #expect(offending.isEmpty, "use fatalError for these misuse checks: \(offending)")
  }
}

/// Each line under `directory` that calls `precondition` or
/// `preconditionFailure`, as `File.swift: code`.
func preconditions(under directory: URL) throws -> [String] {
  let files =
    FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil)?
    .compactMap { $0 as? URL }.filter { $0.pathExtension == "swift" } ?? []
  #expect(!files.isEmpty, "no sources under \(directory.path)")
  var found: [String] = []
  for file in files {
    for line in try String(contentsOf: file, encoding: .utf8).split(separator: "\n") {
      let code = line.trimmingCharacters(in: .whitespaces)
      guard !code.hasPrefix("//") else { continue }
      if code.contains("precondition(") || code.contains("preconditionFailure(") {
        found.append("\(file.lastPathComponent): \(code)")
      }
    }
  }
  return found
}
