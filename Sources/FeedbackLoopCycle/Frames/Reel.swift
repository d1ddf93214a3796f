import DequeModule

/// The state of a Cycle application's system: the current frame, the
/// frames queued behind it by an animation, and the frames shown before it.
///
/// Cycle.swift's frame is ``frame``; the reel around it is what makes
/// animations (an event may queue many frames, ``FrameUpdate``) and event
/// filters over the previous *n* frames (``Frames/previous``) plain values
/// that the reducer alone changes, so that the core's guarantees, the
/// testing kit and the monitor hook see them like any state.
///
/// ```swift
/// let reel = Reel(seed: 0)
/// reel.frame     // 0
/// reel.queue     // [0]: the current frame first
/// ```
public struct Reel<Frame: Sendable>: Sendable {
  /// The current frame first, then the frames an animation queued behind it.
  /// Never empty.
  @inlinable public var queue: Deque<Frame> { _queue }
  // Stored under other names so that the reducer's inlinable code, which
  // runs specialized in the application's module, may change them.
  @usableFromInline var _queue: Deque<Frame>
  /// The frames shown before the current one, the oldest first; at most
  /// ``memory`` of them.
  @inlinable public var previous: Deque<Frame> { _previous }
  @usableFromInline var _previous: Deque<Frame>
  /// How many previous frames the reel keeps for the event filters.
  public let memory: Int
  /// The drivers whose event sequences ended (or threw, with the error's
  /// description), by name, in the order they ended.
  @inlinable public var endedDrivers: [DriverEnd] { _endedDrivers }
  @usableFromInline var _endedDrivers: [DriverEnd]

  /// A reel showing `seed`, keeping the last `memory` frames.
  ///
  /// ```swift
  /// Reel(seed: App.Frame(), memory: 4)
  /// ```
  @inlinable
  public init(seed: Frame, memory: Int = 1) {
    precondition(memory >= 0, "FeedbackLoopCycle: a reel keeps zero or more previous frames; got memory \(memory)")
    _queue = Deque(minimumCapacity: 1)
    _queue.append(seed)
    _previous = Deque(minimumCapacity: memory)
    self.memory = memory
    _endedDrivers = []
  }

  /// A reel with `queue` (the current frame first) and `previous` frames,
  /// as a test writes the state it expects.
  ///
  /// ```swift
  /// Reel(queue: [1, 2, 3], previous: [0], memory: 1)
  /// ```
  public init(queue: [Frame], previous: [Frame] = [], memory: Int = 1, endedDrivers: [DriverEnd] = []) {
    precondition(
      !queue.isEmpty, "FeedbackLoopCycle: a reel's queue holds at least the current frame; got an empty queue")
    precondition(memory >= 0, "FeedbackLoopCycle: a reel keeps zero or more previous frames; got memory \(memory)")
    _queue = Deque(queue)
    _previous = Deque(previous.suffix(memory))
    self.memory = memory
    _endedDrivers = endedDrivers
  }

  /// The current frame: Cycle.swift's Frame.
  @inlinable public var frame: Frame { _queue[_queue.startIndex] }

  /// Whether an animation is playing: more than one frame is queued, and
  /// the animation clock ticks.
  @inlinable public var isAnimating: Bool { _queue.count > 1 }

  /// Makes the next queued frame the current one; the old one joins the
  /// previous frames. O(1), no allocation once the deques have grown.
  @inlinable
  mutating func advance() {
    guard _queue.count > 1 else { return }
    remember(_queue.removeFirst())
  }

  @inlinable
  mutating func remember(_ frame: Frame) {
    guard memory > 0 else { return }
    if _previous.count == memory { _previous.removeFirst() }
    _previous.append(frame)
  }
}

extension Reel: Equatable where Frame: Equatable {}

extension Reel: CustomStringConvertible {
  public var description: String {
    "frame \(frame), queued \(Array(queue.dropFirst())), previous \(Array(previous))"
  }
}

/// How a driver's event sequence ended.
public struct DriverEnd: Sendable, Hashable, CustomStringConvertible {
  /// The driver's name.
  public let driver: String
  /// The error's description when the sequence threw; `nil` when it ended.
  public let failure: String?

  /// A driver's end, as a test writes it.
  ///
  /// ```swift
  /// DriverEnd(driver: "network", failure: "offline")
  /// ```
  public init(driver: String, failure: String? = nil) {
    self.driver = driver
    self.failure = failure
  }

  public var description: String { failure.map { "\(driver) failed: \($0)" } ?? "\(driver) ended" }
}
