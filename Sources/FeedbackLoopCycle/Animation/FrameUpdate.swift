import DequeModule

/// What an event filter makes of an event: the next frame, or a change to
/// the queue of frames an animation plays.
///
/// Most events produce one frame (`Event -> Frame`); an animated response
/// produces many (`Event -> [Frame]`), which the router plays one per tick
/// of its frame rate. Events that arrive during playback re-plan it, as the
/// Cycle.swift's three timelines show (the current frame first):
///
/// | timeline | queue before | event filter returns | queue after |
/// | --- | --- | --- | --- |
/// | Intercepted | `[2, 3, 4, 5]` | `.intercept([1, 0])` | `[2, 1, 0]` |
/// | Appended | `[1, 2, 3]` | `.append([2, 1, 0])` | `[1, 2, 3, 2, 1, 0]` |
/// | Removed | `[1, 2, 3, 4]` | `.removeAnimation` | `[1]` |
///
/// An animation may also wait: ``suspendAnimation`` keeps its frames and
/// stops its clock, ``resumeAnimation`` plays on.
///
/// An animation holds at most ``maximumQueuedFrames`` frames: a longer one
/// is a programming error, reported with a message that says so.
///
/// ```swift
/// case .animateTo(let target):
///   return .intercept(steps(from: frames.current, to: target))
/// ```
///
/// An update is a value a test reads: compare it (`==`, when the frame is
/// `Equatable`) or switch over its ``change``, so that an event filter is
/// tested as a function, with no router and no reel:
///
/// ```swift
/// let frames = Frames(current: 1, previous: [0])
/// #expect(AnimatedInteger.screenEvents(.animateTo(3), frames) == .intercept([2, 3]))
/// ```
public struct FrameUpdate<Frame: Sendable>: Sendable {
  /// What an update does, as a test reads it.
  ///
  /// It grows: a later version may add a case. End a `switch` over it with
  /// `default:` or `@unknown default:`.
  ///
  /// ```swift
  /// if case .intercept(let frames) = update.change { #expect(frames.last == 3) }
  /// ```
  public enum Change: Sendable {
    /// The event is ignored.
    case unchanged
    /// The frame becomes the current one; an animation playing stops.
    case frame(Frame)
    /// The frames queued behind the current one are replaced by these.
    case intercept([Frame])
    /// These frames are queued after the ones playing.
    case append([Frame])
    /// Every queued frame is dropped.
    case removeAnimation
    /// The queued frames wait: no tick runs until the animation resumes.
    case suspendAnimation
    /// A suspended animation plays on from the frame it waited at.
    case resumeAnimation
  }

  /// What the update does.
  public let change: Change

  @inlinable init(change: Change) { self.change = change }

  /// The most frames an animation may queue: a minute at 60 frames a
  /// second. More is almost certainly a runaway computation.
  @inlinable public static var maximumQueuedFrames: Int { 3_600 }

  /// Nothing changes: the event is ignored.
  @inlinable public static var unchanged: FrameUpdate { FrameUpdate(change: .unchanged) }

  /// `frame` becomes the current frame at once; an animation playing stops.
  ///
  /// ```swift
  /// case .increment: return .frame(frames.current + 1)
  /// ```
  @inlinable public static func frame(_ frame: Frame) -> FrameUpdate { FrameUpdate(change: .frame(frame)) }

  /// The current frame stays; the frames queued behind it are replaced by
  /// `frames`, played one per tick (Cycle.swift's Intercepted timeline).
  ///
  /// `frames` must not be empty (use ``removeAnimation`` to stop) and holds
  /// at most ``maximumQueuedFrames``.
  @inlinable public static func intercept(_ frames: [Frame]) -> FrameUpdate {
    checkAnimation(frames, "intercept")
    return FrameUpdate(change: .intercept(frames))
  }

  /// `frames` are queued after the ones playing (Cycle.swift's Appended
  /// timeline). Start them from ``Frames/last``.
  ///
  /// `frames` must not be empty, and the whole queue holds at most
  /// ``maximumQueuedFrames``.
  @inlinable public static func append(_ frames: [Frame]) -> FrameUpdate {
    checkAnimation(frames, "append")
    return FrameUpdate(change: .append(frames))
  }

  /// The current frame stays; every frame queued behind it is dropped (the
  /// Cycle.swift's Removed timeline). The animation clock stops.
  @inlinable public static var removeAnimation: FrameUpdate { FrameUpdate(change: .removeAnimation) }

  /// The current frame stays and the queued frames wait: the animation
  /// clock stops until an event filter returns ``resumeAnimation``. Frames
  /// intercepted or appended meanwhile wait too; ``frame(_:)`` and
  /// ``removeAnimation`` end the animation, suspended or not. With no
  /// animation queued, nothing changes.
  ///
  /// ```swift
  /// case .appWentToBackground: return .suspendAnimation
  /// ```
  @inlinable public static var suspendAnimation: FrameUpdate { FrameUpdate(change: .suspendAnimation) }

  /// A suspended animation plays on, one frame per tick, from the frame it
  /// waited at. With none suspended, nothing changes.
  ///
  /// ```swift
  /// case .appBecameActive: return .resumeAnimation
  /// ```
  @inlinable public static var resumeAnimation: FrameUpdate { FrameUpdate(change: .resumeAnimation) }

  @usableFromInline static func checkAnimation(_ frames: [Frame], _ name: String) {
    guard !frames.isEmpty else {
      fatalError(
        "FeedbackLoopCycle: \(name) needs at least one frame; an empty animation plays nothing (use .removeAnimation to stop one)"
      )
    }
    guard frames.count <= maximumQueuedFrames else {
      fatalError(
        "FeedbackLoopCycle: \(name) of \(frames.count) frames is longer than FrameUpdate.maximumQueuedFrames (\(maximumQueuedFrames))"
      )
    }
  }
}

extension FrameUpdate.Change: Equatable where Frame: Equatable {}

/// Two updates are equal when they make the same change with equal frames.
extension FrameUpdate: Equatable where Frame: Equatable {}

extension FrameUpdate: CustomStringConvertible {
  /// The update as it is written: `.frame(3)`, `.intercept([2, 3])`.
  public var description: String {
    switch change {
    case .unchanged: ".unchanged"
    case .frame(let frame): ".frame(\(frame))"
    case .intercept(let frames): ".intercept(\(frames))"
    case .append(let frames): ".append(\(frames))"
    case .removeAnimation: ".removeAnimation"
    case .suspendAnimation: ".suspendAnimation"
    case .resumeAnimation: ".resumeAnimation"
    }
  }
}

extension Reel {
  /// Applies what an event filter returned. The current frame changes only
  /// for ``FrameUpdate/frame(_:)``; the old one is then remembered.
  @inlinable
  mutating func apply(_ update: FrameUpdate<Frame>) {
    switch update.change {
    case .unchanged:
      return
    case .frame(let frame):
      show(frame)
    case .intercept(let frames):
      makeStorageUnique()
      _storage.queued.removeAll(keepingCapacity: true)
      _storage.queued.append(contentsOf: frames)
    case .append(let frames):
      guard _storage.queued.count + frames.count <= FrameUpdate<Frame>.maximumQueuedFrames else {
        fatalError(
          "FeedbackLoopCycle: appending \(frames.count) frames to the \(_storage.queued.count) queued makes an animation longer than FrameUpdate.maximumQueuedFrames (\(FrameUpdate<Frame>.maximumQueuedFrames))"
        )
      }
      makeStorageUnique()
      _storage.queued.append(contentsOf: frames)
    case .removeAnimation:
      guard !_storage.queued.isEmpty else { return }
      makeStorageUnique()
      _storage.queued.removeAll(keepingCapacity: true)
      _storage.isSuspended = false
    case .suspendAnimation:
      guard !_storage.queued.isEmpty, !_storage.isSuspended else { return }
      makeStorageUnique()
      _storage.isSuspended = true
    case .resumeAnimation:
      guard _storage.isSuspended else { return }
      makeStorageUnique()
      _storage.isSuspended = false
    }
  }
}
