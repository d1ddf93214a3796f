import FeedbackLoop
import Logging

/// A logger for tests: it keeps what a system logs instead of printing it,
/// so that a passing test run stays quiet and a test can check the log.
///
/// A system logs what it cannot report otherwise through its environment's
/// logger (`SystemEnvironment.logger`): an effect's error that
/// no `catch` maps to an event, an event no declared transition matches.
/// Give it this recorder's ``logger``:
///
/// ```swift
/// let logs = LogRecorder()
/// let system = System(
///   initial: State(), reduceReturning: reduce, feedbacks: feedbacks,
///   environment: SystemEnvironment(logger: logs.logger))
/// system.send(.load)
/// #expect(logs.messages == ["effect failed and its error is not mapped to an event"])
/// ```
///
/// ``TestSystem`` records its system's log in one (``TestSystem/logs``).
public final class LogRecorder: Sendable {
  /// One message, as the system logged it.
  public struct Record: Sendable, Equatable {
    /// How severe the message is.
    public var level: Logger.Level
    /// The message.
    public var message: String
    /// The metadata logged with it (the effect, the error, the event…), as text.
    public var metadata: [String: String]
  }

  private let storage = Storage()

  /// Makes an empty recorder.
  public init() {}

  /// A logger whose messages, at every level, this recorder keeps.
  public var logger: Logger {
    var logger = Logger(label: "FeedbackLoop") { [storage] _ in Handler(storage: storage) }
    logger.logLevel = .trace
    return logger
  }

  /// Everything logged so far, in order.
  public var records: [Record] { storage.lock.withLock { storage.records } }

  /// The messages logged so far, in order.
  public var messages: [String] { records.map(\.message) }

  final class Storage: @unchecked Sendable {
    // Sendable: `records` is only read and written under `lock`.
    let lock = Lock()
    var records: [Record] = []
  }

  struct Handler: LogHandler {
    let storage: Storage
    var metadata: Logger.Metadata = [:]
    var logLevel: Logger.Level = .trace

    subscript(metadataKey key: String) -> Logger.Metadata.Value? {
      get { metadata[key] }
      set { metadata[key] = newValue }
    }

    func log(event: LogEvent) {
      let all = metadata.merging(event.metadata ?? [:]) { $1 }
      let record = Record(
        level: event.level, message: "\(event.message)", metadata: all.mapValues { "\($0)" })
      storage.lock.withLock { storage.records.append(record) }
    }
  }
}
