import FeedbackLoopScenarios
import Foundation
import Testing

@Suite struct MigrationGuideTests {
  @Test("the migration guide's \"What to write instead\" shows the code this target compiles, block by block")
  func whatToWriteInsteadIsCompiled() throws {
    let root = ArticleCode.packageRoot(of: #filePath)
    let article = try String(
      contentsOf: root.appendingPathComponent(
        "Sources/FeedbackLoop/Documentation.docc/MigratingFromFeedbackLibraries.md"), encoding: .utf8)
    let section = try #require(
      article.range(of: "## What to write instead, compiled").map { start in
        article[start.lowerBound...].components(separatedBy: "\n## Composition")[0]
      })
    var blocks: [[String]] = []
    var current: [String]?
    for line in section.components(separatedBy: "\n") {
      if current == nil, line == "```swift" {
        current = []
      } else if current != nil, line == "```" {
        blocks.append(current!)
        current = nil
      } else {
        current?.append(line)
      }
    }
    #expect(blocks.count == 8)
    let source = try String(
      contentsOf: root.appendingPathComponent("Tests/FeedbackLoopTutorialTests/Migration/MigrationGuide.swift"),
      encoding: .utf8)
    let lines = ArticleCode.normalized(
      source.replacingOccurrences(of: "Migration.", with: "").components(separatedBy: "\n"))
    for block in blocks {
      let wanted = ArticleCode.normalized(block)
      let found = (0...(lines.count - wanted.count)).contains { Array(lines[$0..<$0 + wanted.count]) == wanted }
      #expect(found, "a block that MigrationGuide.swift does not compile:\n\(block.joined(separator: "\n"))")
    }
  }
}
