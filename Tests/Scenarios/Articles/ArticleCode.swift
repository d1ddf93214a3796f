import Foundation

/// The Swift code blocks of a DocC article, and a check that each appears in
/// a test source that compiles it.
///
/// A test keeps an article's code in a namespace of its own (so that its
/// `State` and `Event` do not clash with other tests'), so the comparison
/// drops that namespace's qualifier and a leading `static `, and
/// compares trimmed lines: indentation aside, each block must be a run of
/// lines of the test source.
package struct ArticleCode {
  package let blocks: [[String]]

  /// Reads the article at `path`, relative to the package's root; only the
  /// section whose `### ` heading is `section`, when one is named.
  package init(article path: String, section: String? = nil, filePath: String = #filePath) throws {
    let text = try String(contentsOf: Self.packageRoot(of: filePath).appendingPathComponent(path), encoding: .utf8)
    var blocks: [[String]] = []
    var current: [String]?
    var inSection = section == nil
    for line in text.components(separatedBy: "\n") {
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      if current == nil, let section, line.hasPrefix("### ") {
        inSection = line == "### " + section
      }
      guard inSection else { continue }
      if current == nil, trimmed == "```swift" {
        current = []
      } else if current != nil, trimmed == "```" {
        blocks.append(current!)
        current = nil
      } else if current != nil {
        current!.append(line)
      }
    }
    self.blocks = blocks
  }

  /// The blocks that appear in none of `sources` (test files, relative to the
  /// package's root) once `namespace.` is dropped from them.
  package func blocksMissing(fromAnyOf sources: [String], namespace: String, filePath: String = #filePath) throws
    -> [String]
  {
    let files = try sources.map { source in
      let text = try String(
        contentsOf: Self.packageRoot(of: filePath).appendingPathComponent(source), encoding: .utf8)
      return Self.normalized(text.replacingOccurrences(of: namespace + ".", with: "").components(separatedBy: "\n"))
    }
    return blocks.filter { block in
      let wanted = Self.normalized(block)
      return !files.contains { lines in
        wanted.count <= lines.count
          && (0...(lines.count - wanted.count)).contains { start in
            Array(lines[start..<start + wanted.count]) == wanted
          }
      }
    }.map { $0.joined(separator: "\n") }
  }

  package static func normalized(_ lines: [String]) -> [String] {
    lines.map { line in
      let trimmed = line.trimmingCharacters(in: .whitespaces)
      return trimmed.hasPrefix("static ") ? String(trimmed.dropFirst("static ".count)) : trimmed
    }.filter { !$0.isEmpty }
  }

  package static func packageRoot(of filePath: String) -> URL {
    var url = URL(fileURLWithPath: filePath)
    while url.pathComponents.count > 1 {
      url.deleteLastPathComponent()
      if FileManager.default.fileExists(atPath: url.appendingPathComponent("Package.swift").path) { return url }
    }
    return url
  }
}
