import Foundation
import Testing

/// The tutorial shows its code files (the catalog's `Resources`) as a reader
/// types them; `Steps/` compiles them, one namespace per step, written by
/// `Scripts/tutorial-code`. These tests check that what compiles is what
/// the tutorial shows.
@Suite struct TutorialCodeTests {
  static let root = URL(fileURLWithPath: #filePath)
    .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
  static let resources = root.appendingPathComponent("Sources/FeedbackLoop/Documentation.docc/Resources")
  static let steps = root.appendingPathComponent("Tests/FeedbackLoopTutorialTests/Steps")

  /// The tutorial's code files, and the generated file of the step each belongs to.
  static func codeFiles() throws -> [(name: String, step: URL)] {
    try FileManager.default.contentsOfDirectory(atPath: resources.path).filter { $0.hasSuffix(".swift") }.sorted()
      .map { name in
        let parts = name.dropLast(".swift".count).split(separator: "-")
        let chapter = Int(parts[parts.count - 2])!
        let step = Int(parts[parts.count - 1])!
        return (name, steps.appendingPathComponent("Chapter\(chapter)Step\(step).swift"))
      }
  }

  @Test("every code file of the tutorial compiles unchanged in its step's namespace")
  func everyCodeFileCompilesUnchanged() throws {
    let files = try Self.codeFiles()
    #expect(files.count >= 20)
    for (name, step) in files {
      let shown = try String(contentsOf: Self.resources.appendingPathComponent(name), encoding: .utf8)
      let compiled = try String(contentsOf: step, encoding: .utf8)
      let body = Self.body(ofShown: shown)
      let section = Self.section(named: name, in: compiled)
      #expect(
        section == body,
        "\(name) differs from what \(step.lastPathComponent) compiles: run Scripts/tutorial-code")
    }
  }

  /// A code file without its imports, as the step's namespace holds it.
  static func body(ofShown text: String) -> [String] {
    var lines = text.components(separatedBy: "\n")
    while let first = lines.first {
      if first.isEmpty || first.hasPrefix("import ") {
        lines.removeFirst()
      } else if first.hasPrefix("#if canImport("), lines.count > 2,
        lines[1].trimmingCharacters(in: .whitespaces).hasPrefix("import "),
        lines[2] == "#endif"
      {
        lines.removeFirst(3)
      } else {
        break
      }
    }
    while lines.last?.isEmpty == true { lines.removeLast() }
    return lines
  }

  /// The lines a generated step holds under `// MARK: name`, unindented.
  static func section(named name: String, in text: String) -> [String]? {
    let lines = text.components(separatedBy: "\n")
    guard let start = lines.firstIndex(of: "  // MARK: \(name)") else { return nil }
    var section: [String] = []
    for line in lines[(start + 2)...] {
      if line.hasPrefix("  // MARK: ") || line == "}" { break }
      section.append(line.isEmpty ? "" : String(line.dropFirst(2)))
    }
    while section.last?.isEmpty == true { section.removeLast() }
    return section
  }
}
