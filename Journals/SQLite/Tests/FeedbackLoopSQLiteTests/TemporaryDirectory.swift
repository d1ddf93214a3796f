import Foundation

/// A folder of its own for one test's database files; the test removes it
/// (`defer { directory.remove() }`).
struct TemporaryDirectory {
  let url: URL

  init() throws {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedbackloop-sqlite-\(UUID().uuidString)", isDirectory: true)
    try FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func path(_ name: String) -> String {
    url.appendingPathComponent(name).path
  }

  func remove() {
    try? FileManager.default.removeItem(at: url)
  }
}
