import FeedbackLoop
import Foundation

/// Records every frame a router shows, through the monitor hook.
///
/// Give its ``monitor`` to ``Router/start(isolation:environment:monitor:caller:)``
/// (combined with others if need be); ``film`` is then the frames shown so
/// far: the seed, then each frame that became current, once (a reduction
/// that leaves the current frame as it was adds nothing).
///
/// ```swift
/// let recorder = FilmRecorder<Int>()
/// let app = router.start(monitor: recorder.monitor)
/// ...
/// recorder.film.reversed()
/// ```
public final class FilmRecorder<Frame: Sendable & Equatable>: Sendable {
  private let recorded = Recording<Frame>()

  /// A recorder with nothing recorded.
  public init() {}

  /// The monitor that records.
  public var monitor: SystemMonitor<Reel<Frame>, CycleEvent> {
    SystemMonitor { [recorded] activity in
      switch activity {
      case .started(let initial):
        recorded.append(initial.frame)
      case .reduced(_, let from, let to, _) where from.frame != to.frame:
        recorded.append(to.frame)
      default:
        break
      }
    }
  }

  /// The frames recorded so far.
  public var film: Film<Frame> { Film(recorded.frames) }
}

/// The recorded frames behind a lock: a monitor may be called from two
/// threads at once.
final class Recording<Frame: Sendable>: @unchecked Sendable {
  // @unchecked: `storage` is read and written only while `lock` is held
  // (a recorder is a debugging tool, never on the hot path: NSLock will do).
  private let lock = NSLock()
  private var storage: [Frame] = []

  func append(_ frame: Frame) {
    lock.withLock { storage.append(frame) }
  }

  var frames: [Frame] { lock.withLock { storage } }
}
