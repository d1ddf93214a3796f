import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// The deriving feedback guide's code (DerivingFeedback.md), and the tests
/// that hold its timeline.
enum DerivingGuide {
  enum Game {
    struct State: Sendable, Equatable {
      var score = 0
      var badges: [String] = []
    }

    enum Event: Sendable, Equatable {
      case scored(Int)
      case badgeAwarded(String)
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .scored(let points): state.score += points
      case .badgeAwarded(let badge): state.badges.append(badge)
      }
    }

    /// The first time the score reaches 100, and never again.
    static let feedbacks: [Feedback<State, Event>] = [
      Feedback.deriving({ states in states.filter { $0.score >= 100 }.prefix(1) }, name: "first hundred") { _ in
        .send(.badgeAwarded("hundred"))
      }
    ]
  }
}

@Suite struct DerivingGuideTests {
  @Test("G7 the deriving guide's timeline: one value from the whole stream, one effect, never again")
  func timeline() {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let game = System(
      initial: DerivingGuide.Game.State(), reduce: DerivingGuide.Game.reduce,
      feedbacks: DerivingGuide.Game.feedbacks,
      environment: SystemEnvironment(clock: clock, effectExecutor: executor))

    game.send(.scored(60))
    executor.runUntilIdle()
    #expect(game.state.badges.isEmpty)
    game.send(.scored(60))
    executor.runUntilIdle()
    #expect(game.state.badges == ["hundred"])
    game.send(.scored(60))
    executor.runUntilIdle()
    #expect(game.state == DerivingGuide.Game.State(score: 180, badges: ["hundred"]))
    game.stop()
  }
}
