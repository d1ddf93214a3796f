import Foundation
import Testing

/// A misuse check says what went wrong in every build: `fatalError` keeps
/// its message in an optimized build, where `precondition` and
/// `preconditionFailure` drop theirs. One scan covers every module under
/// `Sources/`, so a new product is covered without a copy of this test.
@Suite("Misuse checks keep their messages")
struct MisuseChecksKeepTheirMessagesTests {
  /// Checks of the library's own invariants, which no caller can break:
  /// they may stay preconditions.
  static let invariants = [
    "precondition(Value.self == Target.self",
    "precondition(queue.isEmpty,",
    "precondition(position >= 0 && position < count,",
  ]

  @Test("Every misuse check of every product keeps its message in optimized builds")
  func misuseChecksUseFatalError() throws {
    let sources = URL(fileURLWithPath: #filePath)
      .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
      .appendingPathComponent("Sources")
    let offending = try Self.preconditions(under: sources).filter { line in
      !Self.invariants.contains { line.contains($0) }
    }
    #expect(offending.isEmpty, "use fatalError for these misuse checks: \(offending)")
  }

  @Test("The scan finds a precondition when there is one")
  func scanFindsPreconditions() throws {
    let directory = FileManager.default.temporaryDirectory
      .appendingPathComponent("misuse-scan-\(UUID().uuidString)")
    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    defer { try? FileManager.default.removeItem(at: directory) }
    let source = """
      // precondition(commented, "out")
      func f(x: Int) { precondition(x > 0, "x must be positive") }
      func g() { preconditionFailure("no") }
      """
    try source.write(to: directory.appendingPathComponent("A.swift"), atomically: true, encoding: .utf8)
    let found = try Self.preconditions(under: directory)
    #expect(found.count == 2, "\(found)")
  }

  /// Each line under `directory` that calls `precondition` or
  /// `preconditionFailure`, as `File.swift: code`.
  static func preconditions(under directory: URL) throws -> [String] {
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
}
