import FeedbackLoop
import FeedbackLoopTesting
import Synchronization

/// The skip-intro button: when the intro starts, a countdown from 10
/// shows; it ticks each second; at 0 the player seeks past the intro, and
/// the button hides once the seek has completed.
package enum SkipIntro {
  package enum State: Equatable, Sendable {
    case hidden
    case showing(secondsLeft: Int)
    case skipping
  }

  package enum Event: Equatable, Sendable {
    case hasIntroStarted(Bool)
    case secondsLeftChanged(Int)
    case didSkipIntro
  }

  package static let skipIntroTime = 10
  package static let introEnd: Duration = .seconds(95)

  package static func reduce(_ state: State, _ event: Event) -> State {
    switch event {
    case .didSkipIntro:
      .hidden
    case .hasIntroStarted(let hasIntroStarted):
      hasIntroStarted ? .showing(secondsLeft: skipIntroTime) : .hidden
    case .secondsLeftChanged(let secondsLeft):
      secondsLeft == 0 ? .skipping : .showing(secondsLeft: secondsLeft)
    }
  }

  package static func feedbacks(player: some Player) -> [Feedback<State, Event>] {
    [
      // RxFeedback's react(request:): one tick per second shown.
      .query(
        { state -> Int? in
          guard case .showing(let secondsLeft) = state else { return nil }
          return secondsLeft
        },
        name: "countdown"
      ) { secondsLeft in
        .after(.seconds(1), send: .secondsLeftChanged(secondsLeft - 1))
      },
      // The seek is an effect; its completion is an event.
      Feedback.onBecomingTrue({ $0 == .skipping }, name: "seek past the intro") { _ in
        .task {
          try await player.seek(to: introEnd)
          return .didSkipIntro
        }
      },
    ]
  }
}

/// What the skip-intro feature needs of a video player.
package protocol Player: Sendable {
  func seek(to position: Duration) async throws
}

/// A player whose seeks take `latency` on a test clock, and which remembers
/// where it was asked to seek.
@available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
package final class FakePlayer: Player {
  package let clock: TestClock
  package let latency: Duration
  private let positions = Mutex<[Duration]>([])

  package init(clock: TestClock, latency: Duration = .milliseconds(500)) {
    self.clock = clock
    self.latency = latency
  }

  package var seeks: [Duration] { positions.withLock { $0 } }

  package func seek(to position: Duration) async throws {
    positions.withLock { $0.append(position) }
    try await clock.sleep(for: latency)
  }
}
