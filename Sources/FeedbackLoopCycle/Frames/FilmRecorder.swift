import FeedbackLoop

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
  // A monitor may be called from two threads at once.
  private let recorded = Locked<[Frame]>([])

  /// A recorder with nothing recorded.
  public init() {}

  /// The monitor that records.
  public var monitor: SystemMonitor<Reel<Frame>, CycleEvent> {
    SystemMonitor { [recorded] activity in
      switch activity {
      case .started(let initial):
        recorded.withLock { $0.append(initial.frame) }
      case .reduced(_, let from, let to, _) where from.frame != to.frame:
        recorded.withLock { $0.append(to.frame) }
      default:
        break
      }
    }
  }

  /// The frames recorded so far.
  public var film: Film<Frame> { Film(recorded.withLock { $0 }) }
}
