import FeedbackLoop
import FeedbackLoopCycle
import Foundation

/// A driver for tests: records what it renders, and reports the events the
/// test makes it experience. Its events end or throw when the test says so.
final class RecordingDriver<Model: Sendable & Equatable, Event: Sendable>: Driver, @unchecked Sendable {
  // @unchecked: `rendered` is read and written only while `lock` is held;
  // the continuation is thread-safe.
  private let lock = NSLock()
  private var rendered: [Model] = []
  let events: AsyncThrowingStream<Event, any Error>
  private let continuation: AsyncThrowingStream<Event, any Error>.Continuation

  init() {
    (events, continuation) = AsyncThrowingStream.makeStream()
  }

  func render(_ model: Model) {
    lock.withLock { rendered.append(model) }
  }

  var renders: [Model] { lock.withLock { rendered } }

  func experience(_ event: Event) { continuation.yield(event) }
  func end() { continuation.finish() }
  func fail(_ error: any Error) { continuation.finish(throwing: error) }
}

struct Offline: Error, CustomStringConvertible {
  var description: String { "offline" }
}

/// Cycle.swift's animated integer: keys ask for a target; the value walks
/// there one step per frame.
enum Animated {
  static let keys = DriverKey<Key>("keys")

  enum Key: Equatable, Sendable {
    case animateTo(Int)
    case appendTo(Int)
    case cancel
    case pause
    case resume
  }

  /// The integers strictly after `start`, up to and including `target`.
  static func steps(from start: Int, to target: Int) -> [Int] {
    if start < target { return Array(start + 1...target) }
    return Array((target..<start).reversed())
  }

  static func filter(_ key: Key, _ frames: Frames<Int>) -> FrameUpdate<Int> {
    switch key {
    case .animateTo(let target):
      let path = steps(from: frames.current, to: target)
      return path.isEmpty ? .removeAnimation : .intercept(path)
    case .appendTo(let target):
      let path = steps(from: frames.last, to: target)
      return path.isEmpty ? .unchanged : .append(path)
    case .cancel:
      return .removeAnimation
    case .pause:
      return .suspendAnimation
    case .resume:
      return .resumeAnimation
    }
  }

  static func router(seed: Int, keys: RecordingDriver<Int, Key>) -> Router<Int> {
    Router(seed: seed, frameRate: FrameRate(framesPerSecond: 10)) { _ in
      [Wire(Animated.keys, driver: keys, model: { $0 }, events: filter)]
    }
  }
}
