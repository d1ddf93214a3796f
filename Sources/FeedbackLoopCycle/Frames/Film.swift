/// A recorded sequence of frames: Cycle.swift's "commands as values".
///
/// Frames are values, so a recording of them can be verified, reversed,
/// throttled, filtered, spliced and replayed, each an operation on values
/// that returns a new film. Record one from a running router with
/// ``FilmRecorder``; replay one through the router as an animation with
/// ``replayed()``.
///
/// ```swift
/// let film = Film([0, 1, 2, 3, 4, 5])
/// film.reversed().frames            // [5, 4, 3, 2, 1, 0]
/// film.throttled(keepingOneIn: 2)   // [0, 2, 4, 5]
/// film.firstViolation { $0 >= 0 }   // nil: every frame holds
/// ```
public struct Film<Frame: Sendable>: Sendable {
  /// The frames, in the order they were shown.
  public var frames: [Frame]

  /// A film of `frames`.
  public init(_ frames: [Frame]) {
    self.frames = frames
  }

  /// Verified: the position and the frame of the first frame for which
  /// `invariant` does not hold, or `nil` when every frame holds it.
  ///
  /// ```swift
  /// film.firstViolation { $0.count >= 0 }
  /// ```
  public func firstViolation(of invariant: (Frame) -> Bool) -> (offset: Int, frame: Frame)? {
    for (offset, frame) in frames.enumerated() where !invariant(frame) { return (offset, frame) }
    return nil
  }

  /// Reversed: the frames played backwards.
  public func reversed() -> Film { Film(frames.reversed()) }

  /// Throttled: one frame in `n`, from the first, and always the last, so
  /// that a throttled film ends where the film does. `n` must be at least 1.
  ///
  /// ```swift
  /// Film([0, 1, 2, 3, 4, 5]).throttled(keepingOneIn: 2).frames  // [0, 2, 4, 5]
  /// ```
  public func throttled(keepingOneIn n: Int) -> Film {
    guard n >= 1 else {
      fatalError("FeedbackLoopCycle: a film throttled to one frame in \(n) makes no sense; n must be at least 1")
    }
    guard !frames.isEmpty else { return self }
    var kept = stride(from: 0, to: frames.count, by: n).map { frames[$0] }
    if (frames.count - 1) % n != 0 { kept.append(frames[frames.count - 1]) }
    return Film(kept)
  }

  /// Filtered: the frames for which `isIncluded` holds.
  public func filtered(_ isIncluded: (Frame) -> Bool) -> Film { Film(frames.filter(isIncluded)) }

  /// Spliced: `other`'s frames inserted before position `offset`.
  ///
  /// ```swift
  /// Film([0, 1, 4]).spliced(Film([2, 3]), at: 2).frames  // [0, 1, 2, 3, 4]
  /// ```
  public func spliced(_ other: Film, at offset: Int) -> Film {
    guard (0...frames.count).contains(offset) else {
      fatalError("FeedbackLoopCycle: a film of \(frames.count) frames cannot be spliced at \(offset)")
    }
    var spliced = frames
    spliced.insert(contentsOf: other.frames, at: offset)
    return Film(spliced)
  }

  /// Replayed: the film as an animation for an event filter to return; the
  /// router plays it from the current frame, one frame per tick.
  ///
  /// ```swift
  /// case .replay: return recording.replayed()
  /// ```
  public func replayed() -> FrameUpdate<Frame> { .intercept(frames) }

  /// Replayed to a driver: renders each frame's model, in order, as the
  /// router would (a model equal to the one rendered last is skipped).
  ///
  /// ```swift
  /// film.replay(to: screen, model: { Screen.Model(text: "\($0)") })
  /// ```
  public func replay<D: Driver>(to driver: D, model frameFilter: (Frame) -> D.Model) where D.Model: Equatable {
    var last: D.Model?
    for frame in frames {
      let model = frameFilter(frame)
      if model != last { driver.render(model) }
      last = model
    }
  }
}

extension Film: Equatable where Frame: Equatable {}
