import FeedbackLoop
import FeedbackLoopCompatibility
import FeedbackLoopTesting
import Testing

/// RxFeedback's logging higher-order reducer, kept here for code moved from
/// it: the core logs a system with `monitor: .logging(to:level:)`.
struct LoggingReducerTests {
  enum Event: Sendable { case add(Int) }

  @Test("the logging reducer wraps the in-place reducer, the library's reducer, and logs each change")
  func loggingInPlaceReducer() {
    let logs = LogRecorder()
    let logger = logs.logger
    let reduce = logging(
      { (count: inout Int, event: Event) in
        if case .add(let amount) = event { count += amount }
      }, to: logger, level: .info)
    var count = 1
    reduce(&count, .add(2))
    #expect(count == 3)
    #expect(logs.records.contains { $0.level == .info && $0.message.hasPrefix("event add(2): 1 -> 3") })
  }

  @Test("the logging reducer wraps the returning reducer and logs each change")
  func loggingReturningReducer() {
    let logs = LogRecorder()
    let logger = logs.logger
    let reduce = logging(
      reduceReturning: { (count: Int, event: Event) in
        guard case .add(let amount) = event else { return count }
        return count + amount
      }, to: logger, level: .info)
    #expect(reduce(0, .add(1)) == 1)
    #expect(logs.records.contains { $0.level == .info && $0.message.hasPrefix("event add(1): 0 -> 1") })
  }
}
