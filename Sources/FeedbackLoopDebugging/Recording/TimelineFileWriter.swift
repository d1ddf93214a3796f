import FeedbackLoop
import Foundation
import Synchronization

/// Appends moments to a JSON Lines file, one moment a line, on a thread of
/// its own: the loop only puts a moment in a bounded buffer.
///
/// When the buffer is full the moment is dropped and counted: the count is
/// ``droppedCount``, ``finish()`` returns it, and the file gets a gap line
/// (`{"dropped":N,"beforeSequence":S}`) where the moments are missing, which
/// ``TimelineFile`` reports when it reads the file (G14: never silent).
///
/// ```swift
/// let file = try TimelineFileWriter<Search.State, Search.Event>(url: url, bufferCapacity: 4_096)
/// let recorder = Recorder(capacity: 0, file: file)
/// // … run the system, then stop it …
/// let summary = file.finish()
/// print(summary.written, summary.dropped)
/// ```
public final class TimelineFileWriter<State: Sendable & Codable, Event: Sendable & Codable>: Sendable {
  /// What a writer did, once it finished.
  public struct Summary: Sendable, Hashable {
    /// Moments written to the file.
    public var written: UInt64
    /// Moments dropped because the buffer was full.
    public var dropped: UInt64
    /// Moments that could not be encoded (each one logged as a gap too).
    public var unencodable: UInt64
  }

  /// Where the moments go.
  public let url: URL
  /// How many moments may wait for the writer.
  public let bufferCapacity: Int
  @usableFromInline let shared: Locked<Shared>
  /// The drops counted without the lock: ``fullBit`` while the buffer is
  /// full, and below it the moments dropped since then. While the writer
  /// thread falls behind (the file recording benchmark's case: 99% of moments), the loop counts a
  /// drop with one compare-and-swap here instead of taking and releasing
  /// the lock (two, 13% of the file recording benchmark). The writer thread takes the word with
  /// an exchange to 0 when it takes the buffer, under the lock, so that a
  /// drop counted here comes after the moments buffered before it (where
  /// its gap line goes), and a loop whose swap fails finds room.
  @usableFromInline let unlockedDrops = UnlockedDrops()
  @usableFromInline static var fullBit: UInt64 { 1 << 63 }

  /// The word, in an object of its own: the writer thread shares it
  /// without holding the writer.
  @usableFromInline final class UnlockedDrops: Sendable {
    @usableFromInline let word = Atomic<UInt64>(0)
    init() {}
  }
  @usableFromInline let wakeUp = NSCondition()
  private let done = NSCondition()

  @usableFromInline struct Shared: Sendable {
    @usableFromInline var buffer: [Moment<State, Event>] = []
    @usableFromInline var pendingDrops: UInt64 = 0
    @usableFromInline var dropped: UInt64 = 0
    var written: UInt64 = 0
    var unencodable: UInt64 = 0
    @usableFromInline var finishing = false
    var finished = false
    var paused = false
  }

  /// Creates (or truncates) the file and starts the writer thread.
  ///
  /// - Parameters:
  ///   - url: the file.
  ///   - bufferCapacity: how many moments may wait for the writer before
  ///     moments are dropped and counted.
  public convenience init(url: URL, bufferCapacity: Int = 4_096) throws {
    try self.init(url: url, bufferCapacity: bufferCapacity, paused: false)
  }

  /// `paused`: the writer thread waits for ``resume()`` before it writes,
  /// as a writer that the disk holds up would (for tests of the drop count).
  init(url: URL, bufferCapacity: Int, paused: Bool) throws {
    if bufferCapacity <= 0 {
      // A misuse: stopped with its message in optimized builds too (a precondition's is dropped).
      fatalError(
        "FeedbackLoopDebugging: a timeline file writer needs room for at least one moment (bufferCapacity \(bufferCapacity))"
      )
    }
    self.url = url
    self.bufferCapacity = bufferCapacity
    guard FileManager.default.createFile(atPath: url.path, contents: nil) else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: url.path])
    }
    let handle = try FileHandle(forWritingTo: url)
    var buffer: [Moment<State, Event>] = []
    buffer.reserveCapacity(bufferCapacity)
    shared = Locked(Shared(buffer: buffer, paused: paused))
    let thread = Thread { [shared, unlockedDrops, wakeUp, done, bufferCapacity] in
      Self.run(
        handle: handle, shared: shared, unlockedDrops: unlockedDrops, wakeUp: wakeUp, done: done,
        bufferCapacity: bufferCapacity)
    }
    thread.name = "FeedbackLoopDebugging.TimelineFileWriter"
    thread.qualityOfService = .utility
    thread.start()
  }

  /// Puts `moment` in the buffer, or counts it as dropped when the buffer is
  /// full. Never waits for the disk.
  ///
  /// Inlinable, so that the loop's side is specialized for `State` and
  /// `Event`; it wakes the writer only when the buffer was empty: a writer
  /// with moments waiting takes them all before it sleeps again.
  @inlinable public func append(_ moment: Moment<State, Event>) {
    append(making: { moment })
  }

  /// Puts the moment `make` builds in the buffer, or counts it as dropped
  /// without building it when the buffer is full (the recorder's case: it
  /// builds a moment from its ring only when it is kept).
  @inlinable func append(making make: () -> Moment<State, Event>) {
    var word = unlockedDrops.word.load(ordering: .relaxed)
    while word & Self.fullBit != 0 {
      let (counted, found) = unlockedDrops.word.compareExchange(expected: word, desired: word + 1, ordering: .relaxed)
      if counted { return }
      word = found
    }
    let wasEmpty = shared.withLock { shared -> Bool? in
      guard !shared.finishing, shared.buffer.count < bufferCapacity else {
        shared.dropped += 1
        shared.pendingDrops += 1
        return nil
      }
      shared.buffer.append(make())
      // Full: the next drops are counted without the lock until the writer takes the buffer.
      if shared.buffer.count == bufferCapacity { unlockedDrops.word.bitwiseOr(Self.fullBit, ordering: .relaxed) }
      return shared.buffer.count == 1
    }
    if wasEmpty == true {
      wakeUp.lock()
      wakeUp.signal()
      wakeUp.unlock()
    }
  }

  /// Lets a writer made paused write.
  func resume() {
    shared.withLock { $0.paused = false }
    wakeUp.lock()
    wakeUp.signal()
    wakeUp.unlock()
  }

  /// Moments dropped so far because the buffer was full.
  public var droppedCount: UInt64 { shared.withLock { $0.dropped + countedWithoutLock() } }

  /// The drops in ``unlockedDrops`` (read under the lock, which the writer
  /// thread holds when it moves them into `dropped`).
  func countedWithoutLock() -> UInt64 { unlockedDrops.word.load(ordering: .relaxed) & ~Self.fullBit }

  /// Writes what is buffered, closes the file and returns what was written
  /// and dropped. Later appends are counted as dropped.
  ///
  /// This ends the writer's thread: a writer never finished leaves its
  /// thread waiting until the process ends.
  @discardableResult
  public func finish() -> Summary {
    shared.withLock { $0.finishing = true }
    wakeUp.lock()
    wakeUp.signal()
    wakeUp.unlock()
    done.lock()
    while !shared.withLock({ $0.finished }) { done.wait() }
    done.unlock()
    return shared.withLock {
      Summary(written: $0.written, dropped: $0.dropped + countedWithoutLock(), unencodable: $0.unencodable)
    }
  }

  private static func run(
    handle: FileHandle, shared: Locked<Shared>, unlockedDrops: UnlockedDrops, wakeUp: NSCondition,
    done: NSCondition, bufferCapacity: Int
  ) {
    yieldToTheApplication()
    let encoder = JSONEncoder()
    encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
    // Two buffers that trade places: the loop appends to one while this
    // thread writes the other, and neither is ever reallocated (a new
    // buffer per batch made the loop fault in fresh pages as it appended).
    var batch: [Moment<State, Event>] = []
    batch.reserveCapacity(bufferCapacity)
    while true {
      wakeUp.lock()
      var drops: UInt64 = 0
      var finishing = false
      while true {
        (drops, finishing) = shared.withLock { shared in
          if shared.paused { return (0, false) }
          swap(&batch, &shared.buffer)
          let unlocked = unlockedDrops.word.exchange(0, ordering: .relaxed) & ~Self.fullBit
          shared.dropped += unlocked
          defer { shared.pendingDrops = 0 }
          return (shared.pendingDrops + unlocked, shared.finishing)
        }
        if !batch.isEmpty || drops > 0 || finishing { break }
        wakeUp.wait()
      }
      wakeUp.unlock()

      var data = Data()
      var written: UInt64 = 0
      var unencodable: UInt64 = 0
      // Drops happened after the moments already buffered: the gap comes after them.
      for moment in batch {
        if let line = try? encoder.encode(moment) {
          data.append(line)
          written += 1
        } else {
          // The last number has no next one: its gap is at the end.
          data.append(gapLine(count: 1, before: moment.sequence < .max ? moment.sequence + 1 : nil))
          unencodable += 1
        }
        data.append(0x0A)
      }
      if drops > 0 {
        data.append(gapLine(count: drops, before: nil))
        data.append(0x0A)
      }
      if !data.isEmpty { handle.write(data) }
      let wasEmpty = batch.isEmpty
      batch.removeAll(keepingCapacity: true)
      shared.withLock {
        $0.written += written
        $0.unencodable += unencodable
      }
      if finishing && wasEmpty && drops == 0 {
        try? handle.close()
        done.lock()
        shared.withLock { $0.finished = true }
        done.broadcast()
        done.unlock()
        return
      }
    }
  }

  /// Lowers this thread's priority below the application's threads (Darwin
  /// does it from `qualityOfService`, which Linux ignores): when the cores
  /// are busy, the writer waits and drops moments, counted, rather than
  /// take the CPU from the loop it records. A writer that kept pace at the
  /// loop's priority made the file recording benchmark's loop 3 to 4 times slower than the in-memory recording benchmark's on
  /// two loaded cores, for a file that then still dropped most moments.
  private static func yieldToTheApplication() {
    #if canImport(Glibc)
      // On Linux the nice value is the thread's own; 0 names this thread.
      _ = setpriority(__priority_which_t(PRIO_PROCESS.rawValue), 0, 10)
    #endif
  }

  private static func gapLine(count: UInt64, before: UInt64?) -> Data {
    let json = before.map { "{\"dropped\":\(count),\"beforeSequence\":\($0)}" } ?? "{\"dropped\":\(count)}"
    return Data(json.utf8)
  }
}
