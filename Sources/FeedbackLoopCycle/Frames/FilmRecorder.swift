import FeedbackLoop

/// Records every frame a router shows, through the monitor hook.
///
/// Give its ``monitor`` to ``Router/start(isolation:environment:monitor:caller:)``
/// (combined with others if need be); ``film`` is then the frames shown so
/// far: the seed, then every frame that became current, each time it did:
/// a frame equal to the one before it is recorded again (two "ding"s in a
/// row are two frames), each tick of an animation and each jump too. A
/// reduction that shows no frame (an event filter's
/// ``FrameUpdate/unchanged``, a driver's end) adds nothing. The frame need
/// not be `Equatable`.
///
/// ```swift
/// let recorder = FilmRecorder<Int>()
/// let app = router.start(monitor: recorder.monitor)
/// ...
/// recorder.film.reversed()
/// ```
public final class FilmRecorder<Frame: Sendable>: Sendable {
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
      case .reduced(_, let from, let to, _) where from._frameNumber != to._frameNumber:
        recorded.withLock { $0.append(to.frame) }
      default:
        break
      }
    }
  }

  /// The frames recorded so far.
  public var film: Film<Frame> { Film(recorded.withLock { $0 }) }
}
