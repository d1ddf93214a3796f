import Foundation

func nanoseconds(_ duration: Duration) -> Double {
  Double(duration.components.seconds) * 1e9 + Double(duration.components.attoseconds) / 1e9
}

func median(_ values: [Double]) -> Double {
  let sorted = values.sorted()
  return sorted[sorted.count / 2]
}

/// The nearest-rank percentile `p` (0...100) of `values`.
func percentile(_ values: [Double], _ p: Double) -> Double {
  let sorted = values.sorted()
  let rank = Int((p / 100 * Double(sorted.count)).rounded(.up))
  return sorted[max(0, min(sorted.count - 1, rank - 1))]
}

func format(_ value: Double, digits: Int = 2) -> String {
  String(format: "%.\(digits)f", value)
}

/// Stops the process when a workload ended in a wrong state: a figure for a
/// run that lost or duplicated events would be worthless.
func check(_ condition: Bool, _ message: @autoclosure () -> String) {
  if !condition { fatalError("benchmark check failed: \(message())") }
}

/// A folder of the run's own under the temporary directory, removed by
/// `remove()`.
struct ScratchDirectory {
  let url: URL

  init(_ name: String) {
    url = FileManager.default.temporaryDirectory
      .appendingPathComponent("feedbackloop-durable-\(name)-\(UUID().uuidString)")
    try! FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
  }

  func path(_ file: String) -> String { url.appendingPathComponent(file).path }

  func remove() { try? FileManager.default.removeItem(at: url) }
}

func printResult(_ id: String, _ value: String, _ ratio: String) {
  print("RESULT \(id) \(value) \(ratio)")
}

/// The load average now (`/proc/loadavg`, first three fields).
func loadAverage() -> String {
  guard let text = try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8) else { return "unknown" }
  return text.split(separator: " ").prefix(3).joined(separator: " ")
}
