import DequeModule
import Synchronization

/// The state of a Cycle application's system: the current frame, the
/// frames queued behind it by an animation, and the frames shown before it.
///
/// Cycle.swift's frame is ``frame``; the reel around it is what makes
/// animations (an event may queue many frames, ``FrameUpdate``) and event
/// filters over the previous *n* frames (``Frames/previous``) plain values
/// that the reducer alone changes, so that the core's guarantees, the
/// testing kit and the monitor hook see them like any state.
///
/// The current frame is stored inline, so that a frame filter reads it with
/// no copy and no indirection; the rest (the queue, the previous frames, the
/// ended drivers) lives in one copy-on-write storage, so that the copy of the
/// state the loop hands its feedbacks after each event costs one retain.
///
/// A reel read on another thread (`app.state.previous`, G15) is read
/// whole: ``queued``, ``previous``, ``queue`` and ``endedDrivers`` hand back
/// copies of their own, taken from the storage before the read is counted
/// in it, and the loop changes a storage in place only once it holds it
/// alone and has seen that count (`ReelStorage`). The loop's own readers
/// (the event filters' ``Frames``) read the storage directly.
///
/// ```swift
/// let reel = Reel(seed: 0)
/// reel.frame     // 0
/// reel.queue     // [0]: the current frame first
/// ```
public struct Reel<Frame: Sendable>: Sendable {
  // Stored under other names so that the reducer's inlinable code, which
  // runs specialized in the application's module, may change them.
  @usableFromInline var _frame: Frame
  @usableFromInline var _storage: ReelStorage<Frame>
  /// How many previous frames the reel keeps for the event filters.
  public let memory: Int
  /// Counts the frames shown (wrapping): a driver that renders every frame
  /// tells a new frame equal to the last from no new frame by it. Not part
  /// of the reel's value: equality, coding and dumps leave it out.
  @usableFromInline var _frameNumber: UInt = 0

  /// A reel showing `seed`, keeping the last `memory` frames.
  ///
  /// ```swift
  /// Reel(seed: App.Frame(), memory: 4)
  /// ```
  @inlinable
  public init(seed: Frame, memory: Int = 1) {
    guard memory >= 0 else {
      fatalError("FeedbackLoopCycle: a reel keeps zero or more previous frames; got memory \(memory)")
    }
    _frame = seed
    _storage = ReelStorage(
      queued: Deque(), previous: Deque(minimumCapacity: memory), endedDrivers: [], isSuspended: false)
    self.memory = memory
  }

  /// A reel with `queue` (the current frame first) and `previous` frames,
  /// as a test writes the state it expects; `isSuspended` when its
  /// animation is suspended (``FrameUpdate/suspendAnimation``).
  ///
  /// ```swift
  /// Reel(queue: [1, 2, 3], previous: [0], memory: 1)
  /// ```
  public init(
    queue: [Frame], previous: [Frame] = [], memory: Int = 1, endedDrivers: [DriverEnd] = [],
    isSuspended: Bool = false
  ) {
    guard let first = queue.first else {
      fatalError("FeedbackLoopCycle: a reel's queue holds at least the current frame; got an empty queue")
    }
    guard memory >= 0 else {
      fatalError("FeedbackLoopCycle: a reel keeps zero or more previous frames; got memory \(memory)")
    }
    guard !isSuspended || queue.count > 1 else {
      fatalError("FeedbackLoopCycle: a reel with no frame queued behind the current one has no animation to suspend")
    }
    _frame = first
    _storage = ReelStorage(
      queued: Deque(queue.dropFirst()), previous: Deque(previous.suffix(memory)), endedDrivers: endedDrivers,
      isSuspended: isSuspended)
    self.memory = memory
  }

  /// The current frame: Cycle.swift's Frame.
  @inlinable public var frame: Frame { _frame }

  /// The frames an animation queued after the current one, in the order
  /// they will play. A copy of its own (see the type's documentation).
  public var queued: [Frame] { _storage.read { array($0.queued) } }

  /// The current frame first, then the frames an animation queued behind
  /// it. Never empty. Built on each call.
  public var queue: [Frame] {
    _storage.read { storage in
      var queue = [Frame]()
      queue.reserveCapacity(1 + storage.queued.count)
      queue.append(_frame)
      queue.append(contentsOf: storage.queued)
      return queue
    }
  }

  /// The frames shown before the current one, the oldest first; at most
  /// ``memory`` of them. A copy of its own (see the type's documentation).
  public var previous: [Frame] { _storage.read { array($0.previous) } }

  /// The drivers whose event sequences ended (or threw, with the error's
  /// description), by name, in the order they ended.
  public var endedDrivers: [DriverEnd] { _storage.read { $0.endedDrivers.map { $0 } } }

  /// Whether an animation is playing: more than one frame is queued, it
  /// is not suspended, and the animation clock ticks.
  public var isAnimating: Bool { _storage.read { $0.isPlaying } }

  /// Whether the animation queued is suspended: its frames wait, and no
  /// tick runs, until an event filter returns ``FrameUpdate/resumeAnimation``.
  public var isSuspended: Bool { _storage.read { $0.isSuspended } }

  /// Makes the storage this reel's own before a change (copy on write).
  /// A storage held alone is changed in place once the reads of other
  /// threads that the storage counted are seen (``ReelStorage/reads``).
  @inlinable
  mutating func makeStorageUnique() {
    if isKnownUniquelyReferenced(&_storage) {
      _storage.awaitReads()
    } else {
      _storage = _storage.copy()
    }
  }

  /// Makes the next queued frame the current one; the old one joins the
  /// previous frames. O(1), no allocation once the deques have grown.
  @inlinable
  mutating func advance() {
    guard _storage.isPlaying else { return }
    makeStorageUnique()
    var next = _storage.queued.removeFirst()
    swap(&_frame, &next)
    _frameNumber &+= 1
    remember(next)
  }

  /// `frame` becomes the current frame; the old one is remembered, and an
  /// animation playing stops.
  @inlinable
  mutating func show(_ frame: Frame) {
    makeStorageUnique()
    var shown = frame
    swap(&_frame, &shown)
    _frameNumber &+= 1
    remember(shown)
    if !_storage.queued.isEmpty { _storage.queued.removeAll(keepingCapacity: true) }
    _storage.isSuspended = false
  }

  /// Adds `frame` to the previous frames, forgetting the oldest beyond
  /// ``memory``. The storage is unique.
  @inlinable
  mutating func remember(_ frame: Frame) {
    guard memory > 0 else { return }
    if _storage.previous.count == memory { _storage.previous.removeFirst() }
    _storage.previous.append(frame)
  }

  /// Records that a driver's event sequence ended.
  @inlinable
  mutating func recordEnd(_ end: DriverEnd) {
    makeStorageUnique()
    _storage.endedDrivers.append(end)
  }
}

/// What a reel keeps besides its current frame, in one object so that a
/// copy of the reel retains one reference.
///
/// Why a storage read on another thread may then be changed in place: the
/// loop changes it only when its reel holds the one reference to it
/// (`isKnownUniquelyReferenced`), so every other thread that read it has
/// released it, and the release and the check are ordered by the runtime's
/// reference count (a release, then an acquire). ThreadSanitizer does not
/// see that order (the runtime is not instrumented), and reported the
/// loop's next change as a race with such a read. So the reads are also
/// ordered where it sees them: a reel's public accessors copy what they read
/// out of the storage, then count the read in `reads` (a release); the loop
/// loads `reads` (an acquire) before it changes a storage it holds alone.
/// It costs the loop one plain load per change on x86 and ARM; a copy
/// (``copy()``) shares no buffer with the storage it copies, so that each
/// buffer is reached through one storage only.
@usableFromInline
final class ReelStorage<Frame: Sendable>: @unchecked Sendable {
  // @unchecked: a storage is changed only through a reel that holds the one
  // reference to it (`Reel.makeStorageUnique()` copies it first otherwise),
  // so a storage two reels, or two threads, can see is never written; and
  // the reads of other threads are ordered before the change (above).
  @exclusivity(unchecked) @usableFromInline var queued: Deque<Frame>
  @exclusivity(unchecked) @usableFromInline var previous: Deque<Frame>
  @exclusivity(unchecked) @usableFromInline var endedDrivers: [DriverEnd]
  /// Whether the queued frames wait; false whenever none is queued.
  @exclusivity(unchecked) @usableFromInline var isSuspended: Bool
  /// The reads through a reel's public accessors, counted after each.
  @usableFromInline let reads = Atomic<Int>(0)

  @inlinable
  init(queued: Deque<Frame>, previous: Deque<Frame>, endedDrivers: [DriverEnd], isSuspended: Bool) {
    self.queued = queued
    self.previous = previous
    self.endedDrivers = endedDrivers
    self.isSuspended = isSuspended
  }

  /// Whether the animation clock ticks: frames are queued and not suspended.
  @inlinable var isPlaying: Bool { !queued.isEmpty && !isSuspended }

  /// A storage with the same frames in buffers of its own.
  @inlinable
  func copy() -> ReelStorage {
    ReelStorage(
      queued: Deque(queued), previous: Deque(previous), endedDrivers: endedDrivers.map { $0 }, isSuspended: isSuspended)
  }

  /// Reads the storage with `body`, which must copy what it keeps, then
  /// counts the read.
  @inlinable
  func read<Result>(_ body: (ReelStorage) -> Result) -> Result {
    defer { reads.add(1, ordering: .releasing) }
    return body(self)
  }

  /// Orders the counted reads before the change the loop is about to make.
  @inlinable
  func awaitReads() {
    _ = reads.load(ordering: .acquiring)
  }
}

/// Two reels are equal when they hold the same frames: the one shown, the
/// queue, the previous ones, the drivers ended, the animation suspended or
/// not. ``memory`` is the router's setting, not a frame: it does not count,
/// so a test's expected reel needs only the frames (a frame in, frames out).
///
/// ```swift
/// Reel(queue: [2], previous: [1], memory: 4) == Reel(queue: [2], previous: [1])  // true
/// ```
extension Reel: Equatable where Frame: Equatable {
  public static func == (lhs: Reel, rhs: Reel) -> Bool {
    guard lhs._frame == rhs._frame else { return false }
    if lhs._storage === rhs._storage { return true }
    return lhs._storage.read { left in
      rhs._storage.read { right in
        left.queued == right.queued && left.previous == right.previous && left.endedDrivers == right.endedDrivers
          && left.isSuspended == right.isSuspended
      }
    }
  }
}

extension Reel: CustomStringConvertible {
  public var description: String {
    "frame \(frame), queued \(queued)\(isSuspended ? " (suspended)" : ""), previous \(previous)"
  }

}

/// How a driver's event sequence ended.
public struct DriverEnd: Sendable, Hashable, Codable, CustomStringConvertible {
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

/// `frames` as an array of their own. An empty deque is not made an array:
/// `Array(Deque())` writes its count into the standard library's shared
/// empty array, which ThreadSanitizer reports as a race between two threads
/// that read empty reels.
@usableFromInline
func array<Frame>(_ frames: Deque<Frame>) -> [Frame] {
  frames.isEmpty ? [] : Array(frames)
}
