import Dispatch
import FeedbackLoop

/// The lines waiting for the network, between whoever appends them (the
/// loop's monitor, the connection's reader) and the connection's writing
/// thread, which waits for them.
///
/// Appending never waits for the network: the loop appends from inside a
/// reduction. Only the writer blocks, on a semaphore that an append signals
/// when the writer said it would wait, so that no wake-up is lost and none
/// is spent on a writer that is busy.
final class OutgoingLines: Sendable {
  private struct Queue {
    var lines: [String] = []
    var finished = false
    var writerWaits = false
  }

  private let queue = Locked(Queue())
  private let wakeUp = DispatchSemaphore(value: 0)

  /// What an append did.
  enum Appended: Equatable {
    /// The line waits for the writer (or, once ``finish()`` was called, is
    /// dropped: the connection is ending).
    case accepted
    /// `capacity` lines already wait: the line is dropped.
    case full
  }

  /// Appends `line` (without its newline), unless `capacity` lines already
  /// wait; without a capacity, always.
  @discardableResult
  func append(_ line: String, capacity: Int? = nil) -> Appended {
    let (appended, wake) = queue.withLock { queue -> (Appended, Bool) in
      guard !queue.finished else { return (.accepted, false) }
      if let capacity, queue.lines.count >= capacity { return (.full, false) }
      queue.lines.append(line)
      defer { queue.writerWaits = false }
      return (.accepted, queue.writerWaits)
    }
    if wake { wakeUp.signal() }
    return appended
  }

  /// How many lines wait for the writer.
  var waitingCount: Int { queue.withLock { $0.lines.count } }

  /// No line is appended after this; the writer takes what waits, then ends.
  func finish() {
    let wake = queue.withLock { queue -> Bool in
      queue.finished = true
      defer { queue.writerWaits = false }
      return queue.writerWaits
    }
    if wake { wakeUp.signal() }
  }

  /// Every waiting line, waiting for one if none does; nil once finished
  /// and empty. Blocks: for the writing thread only.
  func take() -> [String]? {
    while true {
      let taken = queue.withLock { queue -> [String]?? in
        if !queue.lines.isEmpty {
          defer { queue.lines = [] }
          return .some(queue.lines)
        }
        if queue.finished { return .some(nil) }
        queue.writerWaits = true
        return .none
      }
      if let taken { return taken }
      wakeUp.wait()
    }
  }
}
