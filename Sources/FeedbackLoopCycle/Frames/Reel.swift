import DequeModule

/// The state of a Cycle application's system: the current frame, the
/// frames queued behind it by an animation, and the frames shown before it.
///
/// The seed's frame is ``frame``; the reel around it is what makes
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
  public internal(set) var queue: Deque<Frame>
  /// The frames shown before the current one, the oldest first; at most
  /// ``memory`` of them.
  public internal(set) var previous: Deque<Frame>
  /// How many previous frames the reel keeps for the event filters.
  public let memory: Int
  /// The drivers whose event sequences ended (or threw, with the error's
  /// description), by name, in the order they ended.
  public internal(set) var endedDrivers: [DriverEnd]

  /// A reel showing `seed`, keeping the last `memory` frames.
  ///
  /// ```swift
  /// Reel(seed: App.Frame(), memory: 4)
  /// ```
  public init(seed: Frame, memory: Int = 1) {
    precondition(memory >= 0, "FeedbackLoopCycle: a reel keeps zero or more previous frames; got memory \(memory)")
    queue = Deque(minimumCapacity: 1)
    queue.append(seed)
    previous = Deque(minimumCapacity: memory)
    self.memory = memory
    endedDrivers = []
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
    self.queue = Deque(queue)
    self.previous = Deque(previous.suffix(memory))
    self.memory = memory
    self.endedDrivers = endedDrivers
  }

  /// The current frame: the seed's Frame.
  public var frame: Frame { queue[queue.startIndex] }

  /// Whether an animation is playing: more than one frame is queued, and
  /// the animation clock ticks.
  public var isAnimating: Bool { queue.count > 1 }

  /// Makes the next queued frame the current one; the old one joins the
  /// previous frames. O(1), no allocation once the deques have grown.
  mutating func advance() {
    guard queue.count > 1 else { return }
    remember(queue.removeFirst())
  }

  mutating func remember(_ frame: Frame) {
    guard memory > 0 else { return }
    if previous.count == memory { previous.removeFirst() }
    previous.append(frame)
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
