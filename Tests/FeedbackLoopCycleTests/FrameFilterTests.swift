import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopTesting
import Testing

/// The seed's two frame filters, each optional: a conversion that may read
/// the previous frames (a scan), and the equality check a driver may opt
/// out of.
@Suite(.runsLeftoverJobs) struct FrameFilterTests {
  enum Sound: Equatable, Sendable {
    case silence
    case ding
  }

  /// A model that is not `Equatable`: a driver of it cannot be skipped by
  /// comparison, and renders every frame.
  struct Chime: Sendable {
    let sound: Sound
    let frameSeen: Int
  }

  final class Speaker: Driver, Sendable {
    let played = RecordingDriver<String, Never>()
    let events = AsyncStream<Sound> { _ in }
    func render(_ model: Chime) { played.render("\(model.sound) \(model.frameSeen)") }
  }

  static let bell = DriverKey<Sound>("bell")
  static let steps = DriverKey<Int>("steps")

  @Test("a frame filter reads the previous frames: the model is a scan of the last few")
  func frameFilterReadsPreviousFrames() {
    let trail = RecordingDriver<[Int], Int>()
    let router = Router(seed: 0, memory: 2) { _ in
      [
        Wire(
          Self.steps, driver: trail, modelOfFrames: { Array($0.previous) + [$0.current] },
          events: { step, frames in step == 0 ? .unchanged : .frame(frames.current + step) })
      ]
    }
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver(Self.steps, 1)) { $0 = Reel(queue: [1], previous: [0], memory: 2) }
    app.send(.driver(Self.steps, 2)) { $0 = Reel(queue: [3], previous: [0, 1], memory: 2) }
    app.send(.driver(Self.steps, 0))  // no frame shown, the same trail: skipped
    app.send(.driver(Self.steps, 4)) { $0 = Reel(queue: [7], previous: [1, 3], memory: 2) }
    app.finish()
    #expect(trail.renders == [[0], [0, 1], [0, 1, 3], [1, 3, 7]])
  }

  @Test("a driver that opts out of the equality filter renders two equal frames in a row twice")
  func everyFrameRendersRepeats() {
    let speaker = Speaker()
    let router = Router(seed: Sound.silence, memory: 1) { _ in
      [
        Wire(
          Self.bell, driver: speaker,
          modelOfEveryFrame: { Chime(sound: $0.current, frameSeen: $0.previous.count) },
          events: { sound, _ in sound == .silence ? .unchanged : .frame(sound) })
      ]
    }
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver(Self.bell, .ding)) { $0 = Reel(queue: [.ding], previous: [.silence]) }
    app.send(.driver(Self.bell, .ding)) { $0 = Reel(queue: [.ding], previous: [.ding]) }  // a second ding
    app.send(.driver(Self.bell, .silence))  // no frame shown: nothing played
    app.send(.travel(to: Reel(queue: [Sound.ding], previous: [.ding])))  // a jump shows a frame
    app.finish()
    #expect(speaker.played.renders == ["silence 0", "ding 1", "ding 1", "ding 1"])
  }

  @Test("a driver that renders every frame renders each frame of an animation, an equal one too")
  func everyFrameRendersEachTick() {
    let speaker = Speaker()
    let router = Router(seed: Sound.silence, memory: 0, frameRate: FrameRate(framesPerSecond: 10)) { _ in
      [
        Wire(
          Self.bell, driver: speaker,
          modelOfEveryFrame: { Chime(sound: $0.current, frameSeen: $0.queued.count) },
          events: { _, _ in .intercept([.ding, .ding, .silence]) })
      ]
    }
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver(Self.bell, .ding)) { $0 = Reel(queue: [.silence, .ding, .ding, .silence], memory: 0) }
    app.advance(by: .milliseconds(300))
    app.receive(.tick) { $0 = Reel(queue: [.ding, .ding, .silence], memory: 0) }
    app.receive(.tick) { $0 = Reel(queue: [.ding, .silence], memory: 0) }
    app.receive(.tick) { $0 = Reel(queue: [.silence], memory: 0) }
    app.finish()
    #expect(speaker.played.renders == ["silence 0", "ding 2", "ding 1", "silence 0"])
  }

  @Test("an equatable driver wired the usual way still skips the equal frame")
  func equalityFilterStillSkips() {
    let bell = RecordingDriver<Sound, Sound>()
    let router = Router(seed: Sound.silence) { _ in
      [Wire(Self.bell, driver: bell, model: { $0 }, events: { sound, _ in .frame(sound) })]
    }
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver(Self.bell, .ding)) { $0 = Reel(queue: [.ding], previous: [.silence]) }
    app.send(.driver(Self.bell, .ding)) { $0 = Reel(queue: [.ding], previous: [.ding]) }
    app.finish()
    #expect(bell.renders == [.silence, .ding])
  }
}
