import FeedbackLoop
import FeedbackLoopCompatibility
import Logging
import Synchronization
import Testing

/// RxFeedback's logging higher-order reducer, kept here for code moved from
/// it: the core logs a system with `monitor: .logging(to:level:)`.
struct LoggingReducerTests {
  enum Event: Sendable { case add(Int) }

  @Test("the logging reducer wraps the in-place reducer, the library's reducer, and logs each change")
  func loggingInPlaceReducer() {
    let lines = Lines()
    let logger = Logger(label: "test") { _ in LinesHandler(lines: lines) }
    let reduce = logging(
      { (count: inout Int, event: Event) in
        if case .add(let amount) = event { count += amount }
      }, to: logger, level: .info)
    var count = 1
    reduce(&count, .add(2))
    #expect(count == 3)
    #expect(lines.entries.contains { $0.hasPrefix("info event add(2): 1 -> 3") })
  }

  @Test("the logging reducer wraps the returning reducer and logs each change")
  func loggingReturningReducer() {
    let lines = Lines()
    let logger = Logger(label: "test") { _ in LinesHandler(lines: lines) }
    let reduce = logging(
      reduceReturning: { (count: Int, event: Event) in
        guard case .add(let amount) = event else { return count }
        return count + amount
      }, to: logger, level: .info)
    #expect(reduce(0, .add(1)) == 1)
    #expect(lines.entries.contains { $0.hasPrefix("info event add(1): 0 -> 1") })
  }
}

/// The lines a logger wrote, in order.
final class Lines: Sendable {
  private let storage = Mutex<[String]>([])
  var entries: [String] { storage.withLock { $0 } }
  func append(_ line: String) { storage.withLock { $0.append(line) } }
}

/// A swift-log handler that keeps each message.
struct LinesHandler: LogHandler {
  let lines: Lines
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    lines.append("\(event.level) \(event.message)")
  }
}
