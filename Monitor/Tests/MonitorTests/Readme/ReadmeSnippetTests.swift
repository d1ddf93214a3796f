import FeedbackLoop
import Foundation
import Testing

@testable import MonitorServer

/// Monitor/README.md's "Connect an application" is `ReadmeCounter.swift`,
/// word for word: compiled here, and run against a real monitor.
struct ReadmeSnippetTests {
  static let folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()

  @Test("the README's snippet is ReadmeCounter.swift, word for word")
  func readmeShowsTheCompiledSnippet() throws {
    let readme = try String(
      contentsOf: Self.folder.appendingPathComponent("../../../README.md").standardizedFileURL, encoding: .utf8)
    let section = try #require(readme.range(of: "## Connect an application"))
    let start = try #require(readme.range(of: "```swift\n", range: section.upperBound..<readme.endIndex))
    let end = try #require(readme.range(of: "```\n", range: start.upperBound..<readme.endIndex))
    let snippet = String(readme[start.upperBound..<end.lowerBound])
    let source = try String(contentsOf: Self.folder.appendingPathComponent("ReadmeCounter.swift"), encoding: .utf8)
    #expect(snippet == source)
  }

  @Test("the README's snippet connects a counter to a running monitor")
  func readmeSnippetConnects() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let (counter, link) = try await runCounterWithTheMonitor(secret: server.secret, port: ports.app)
    #expect(counter.state.count == 1)
    await link.close()
    counter.stop()
    await server.stop()
  }
}
