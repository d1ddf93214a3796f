import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopTesting
import Testing

/// A throwing frame filter through long runs of failures and models: the
/// driver sees each model once per change, and each run of failures is
/// reported once.
@Suite(.runsLeftoverJobs) struct ThrowingWireSequenceTests {
  typealias Net = FailureTests.Net

  /// Frames are Ints; the model is the tens (10...19 is model 1), and the
  /// frame 13 alone (one frame of model 1) throws, as a negative frame does.
  static func router(_ screen: RecordingDriver<Int, Net>) -> Router<Int> {
    Router(seed: 10) { _ in
      [
        Wire(
          "screen", driver: screen,
          model: { frame in
            guard frame >= 0, frame != 13 else { throw FailureTests.BadFrame() }
            return frame / 10
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

  @Test("G12 failure, A, failure, A, B, failure, B: A and B rendered once each, each failure reported once")
  func failuresBetweenModels() {
    let screen = RecordingDriver<Int, Net>()
    let router = Self.router(screen)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    let failed = Net.failed("negative")
    app.send(.driver("screen", Net.response(-1))) { $0 = Reel(queue: [-1], previous: [10]) }
    app.receive(.driver("screen", failed))
    app.send(.driver("screen", Net.response(11))) { $0 = Reel(queue: [11], previous: [-1]) }  // A, shown
    app.send(.driver("screen", Net.response(13))) { $0 = Reel(queue: [13], previous: [11]) }  // A's frame fails
    app.receive(.driver("screen", failed))
    app.send(.driver("screen", Net.response(13))) { $0 = Reel(queue: [13], previous: [13]) }  // the same failure
    app.send(.driver("screen", Net.response(-5))) { $0 = Reel(queue: [-5], previous: [13]) }  // another failure
    app.send(.driver("screen", Net.response(12))) { $0 = Reel(queue: [12], previous: [-5]) }  // A again
    app.send(.driver("screen", Net.response(20))) { $0 = Reel(queue: [20], previous: [12]) }  // B
    app.send(.driver("screen", Net.response(-1))) { $0 = Reel(queue: [-1], previous: [20]) }
    app.receive(.driver("screen", failed))
    app.send(.driver("screen", Net.response(25))) { $0 = Reel(queue: [25], previous: [-1]) }  // B again
    #expect(screen.renders == [1, 2])
    app.finish()
  }
}
