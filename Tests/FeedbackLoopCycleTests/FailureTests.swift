import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopTesting
import Testing

/// Filters that throw map to events (G12); bad input is refused at the call
/// with a message that says what was wrong.
@Suite(.runsLeftoverJobs) struct FailureTests {
  enum Net: Equatable, Sendable {
    case response(Int)
    case failed(String)
  }

  struct BadFrame: Error, CustomStringConvertible {
    var description: String { "negative" }
  }

  /// Frames are Ints; the network's model refuses a negative frame, and
  /// its event filter refuses a negative response.
  static func router(_ network: RecordingDriver<Int, Net>) -> Router<Int> {
    Router(seed: 0) { _ in
      [
        Wire(
          "network", driver: network,
          model: { frame in
            guard frame >= 0 else { throw BadFrame() }
            return frame
          },
          events: { event, frames in
            switch event {
            case .response(let value):
              guard value != 13 else { throw BadFrame() }
              return .frame(value)
            case .failed(let reason):
              return .frame(reason == "negative" ? -100 : frames.current)
            }
          },
          catch: { error in .failed("\(error)") })
      ]
    }
  }

  @Test("G12 a frame filter that throws maps to an event of its driver, reported once")
  func throwingFrameFilter() {
    let network = RecordingDriver<Int, Net>()
    let router = Self.router(network)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver("network", Net.response(-1))) { $0 = Reel(queue: [-1], previous: [0]) }
    // The filter threw for -1: its error became `.failed("negative")`,
    // whose frame (-100) the filter refuses too: reported once, not again.
    app.receive(.driver("network", Net.failed("negative"))) { $0 = Reel(queue: [-100], previous: [-1]) }
    app.send(.driver("network", Net.response(5))) { $0 = Reel(queue: [5], previous: [-100]) }
    app.finish()
    #expect(network.renders == [0, 5])
  }

  @Test("G12 an event filter that throws maps, in the same reduction, to its driver's event")
  func throwingEventFilter() {
    let network = RecordingDriver<Int, Net>()
    let router = Self.router(network)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver("network", Net.response(2))) { $0 = Reel(queue: [2], previous: [0]) }
    // 13 throws: the error becomes `.failed("negative")`, filtered in the
    // same reduction into -100.
    app.send(.driver("network", Net.response(13))) { $0 = Reel(queue: [-100], previous: [2]) }
    // -100 is refused by the frame filter, whose error is sent once.
    app.receive(.driver("network", Net.failed("negative"))) { $0 = Reel(queue: [-100], previous: [-100]) }
    app.finish()
  }

  /// Frames are Ints; the model refuses a negative frame, and the failure
  /// event leaves the frame as it is.
  static func steadyRouter(_ screen: RecordingDriver<Int, Net>) -> Router<Int> {
    Router(seed: 0) { _ in
      [
        Wire(
          "screen", driver: screen,
          model: { frame in
            guard frame >= 0 else { throw BadFrame() }
            return frame
          },
          events: { event, _ in
            switch event {
            case .response(let value): .frame(value)
            case .failed: .unchanged
            }
          },
          catch: { error in .failed("\(error)") })
      ]
    }
  }

  @Test("A throwing frame filter skips a model equal to the one rendered last, whatever failed in between")
  func equalModelAfterFailureIsSkipped() {
    let screen = RecordingDriver<Int, Net>()
    let router = Self.steadyRouter(screen)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver("screen", Net.response(-1))) { $0 = Reel(queue: [-1], previous: [0]) }
    app.receive(.driver("screen", Net.failed("negative")))
    // Model 0 again: the driver still shows it, so nothing is rendered.
    app.send(.driver("screen", Net.response(0))) { $0 = Reel(queue: [0], previous: [-1]) }
    #expect(screen.renders == [0])
    // Two failures in a row between equal models: still one render.
    app.send(.driver("screen", Net.response(-2))) { $0 = Reel(queue: [-2], previous: [0]) }
    app.receive(.driver("screen", Net.failed("negative")))
    app.send(.driver("screen", Net.response(-3))) { $0 = Reel(queue: [-3], previous: [-2]) }
    app.send(.driver("screen", Net.response(0))) { $0 = Reel(queue: [0], previous: [-3]) }
    #expect(screen.renders == [0])
    // A different model after a failure is rendered; a failure after it is
    // reported again.
    app.send(.driver("screen", Net.response(-1))) { $0 = Reel(queue: [-1], previous: [0]) }
    app.receive(.driver("screen", Net.failed("negative")))
    app.send(.driver("screen", Net.response(5))) { $0 = Reel(queue: [5], previous: [-1]) }
    app.send(.driver("screen", Net.response(-1))) { $0 = Reel(queue: [-1], previous: [5]) }
    app.receive(.driver("screen", Net.failed("negative")))
    app.send(.driver("screen", Net.response(5))) { $0 = Reel(queue: [5], previous: [-1]) }
    #expect(screen.renders == [0, 5])
    app.finish()
  }

  @Test("G9 a throwing frame filter's feedbacks in two systems at once: each skips against its own renders")
  func throwingFilterTwoSystems() {
    let screen = RecordingDriver<Int, Net>()
    let router = Self.steadyRouter(screen)
    let feedbacks = router.feedbacks.filter { !$0.name.hasPrefix("events of") }
    let first = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: feedbacks)
    let second = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: feedbacks)
    #expect(screen.renders == [0, 0])
    first.send(.driver("screen", Net.response(3))) { $0 = Reel(queue: [3], previous: [0]) }
    second.send(.driver("screen", Net.response(-1))) { $0 = Reel(queue: [-1], previous: [0]) }
    second.receive(.driver("screen", Net.failed("negative")))
    second.send(.driver("screen", Net.response(0))) { $0 = Reel(queue: [0], previous: [-1]) }  // its own 0: skipped
    second.send(.driver("screen", Net.response(3))) { $0 = Reel(queue: [3], previous: [0]) }  // new to this system
    #expect(screen.renders == [0, 0, 3, 3])
    first.finish()
    second.finish()
  }

  #if os(macOS) || os(Linux)
    @Test("a frame rate of zero is refused with a message")
    func zeroFrameRate() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = FrameRate(framesPerSecond: 0)
      }
      Self.expect(result, saying: "a frame rate must be greater than zero frames per second; got 0")
    }

    @Test("a negative frame rate is refused with a message")
    func negativeFrameRate() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = FrameRate(framesPerSecond: -30)
      }
      Self.expect(result, saying: "a frame rate must be greater than zero frames per second; got -30")
    }

    @Test("an empty animation is refused with a message")
    func emptyAnimation() async {
      let intercept = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = FrameUpdate<Int>.intercept([])
      }
      Self.expect(intercept, saying: "intercept needs at least one frame")
      let append = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = FrameUpdate<Int>.append([])
      }
      Self.expect(append, saying: "append needs at least one frame")
    }

    @Test("an animation longer than the bound says so")
    func overLongAnimation() async {
      let long = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = FrameUpdate<Int>.intercept(Array(0...3_600))
      }
      Self.expect(long, saying: "intercept of 3601 frames is longer than FrameUpdate.maximumQueuedFrames (3600)")
      let appended = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let keys = RecordingDriver<Int, Int>()
        let router = Router(seed: 0) { _ in
          [Wire("keys", driver: keys, model: { $0 }, events: { n, _ in .append(Array(repeating: 1, count: n)) })]
        }
        let app = router.start()
        app.send(.driver("keys", 3_000))
        app.send(.driver("keys", 3_000))
      }
      Self.expect(appended, saying: "makes an animation longer than FrameUpdate.maximumQueuedFrames (3600)")
    }

    @Test("an empty reel is refused with a message")
    func emptyReel() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        _ = Reel<Int>(queue: [])
      }
      Self.expect(result, saying: "a reel's queue holds at least the current frame")
    }

    @Test("an event for a driver the router does not have is refused with a message")
    func unknownDriver() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let keys = RecordingDriver<Int, Int>()
        let router = Router(seed: 0) { _ in [Wire("keys", driver: keys, model: { $0 }, events: { _, _ in .unchanged })]
        }
        router.start().send(.driver("mouse", 1))
      }
      Self.expect(result, saying: "no driver is called mouse")
    }

    @Test("an event of the wrong type for its driver is refused with a message")
    func wrongEventType() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let keys = RecordingDriver<Int, Int>()
        let router = Router(seed: 0) { _ in [Wire("keys", driver: keys, model: { $0 }, events: { _, _ in .unchanged })]
        }
        router.start().send(.driver("keys", "one"))
      }
      Self.expect(result, saying: "the driver keys reports events of type Int; it was sent String")
    }

    private static func expect(_ result: ExitTest.Result?, saying message: String) {
      guard let result else { return }
      let errors = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(errors.contains(message), "stderr: \(errors)")
    }
  #endif
}
