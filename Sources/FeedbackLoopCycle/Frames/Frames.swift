import DequeModule

/// What an event filter sees besides the event: the current frame, the
/// previous *n* frames, and the frames an animation queued.
///
/// Cycle.swift's event filter is "the event along with the previous *n*
/// frames": *n* is the router's `memory`. A gesture recognised over the last
/// few touches reads ``previous``; an animation appended to the one playing
/// starts from ``last``.
///
/// ``previous`` and ``queued`` are arrays made on each read (a few frames:
/// the router's `memory`, an animation's queue); ``current`` and ``last``
/// are read in place. Read them in the filter, on the loop's thread.
///
/// ```swift
/// { (event: Keys.Event, frames: Frames<App.Frame>) in
///   let lastTaps = frames.previous.suffix(2).map(\.lastKey)
///   ...
/// }
/// ```
public struct Frames<Frame: Sendable>: Sendable {
  @usableFromInline let reel: Reel<Frame>

  @inlinable init(reel: Reel<Frame>) { self.reel = reel }

  /// The frames an event filter sees, as a test writes them: to call the
  /// filter as a function, with no router.
  ///
  /// ```swift
  /// let frames = Frames(current: 2, previous: [0, 1], queued: [3])
  /// #expect(App.screenEvents(.cancel, frames) == .removeAnimation)
  /// ```
  public init(current: Frame, previous: [Frame] = [], queued: [Frame] = []) {
    self.init(reel: Reel(queue: [current] + queued, previous: previous, memory: previous.count))
  }

  /// The current frame.
  @inlinable public var current: Frame { reel._frame }
  /// The frames shown before the current one, the oldest first.
  @inlinable public var previous: [Frame] { array(reel._storage.previous) }
  /// The frames an animation queued after the current one, in order.
  @inlinable public var queued: [Frame] { array(reel._storage.queued) }
  /// The frame the reel will show when its animation ends: the last queued
  /// frame, or the current one.
  @inlinable public var last: Frame { reel._storage.queued.last ?? reel._frame }
}
