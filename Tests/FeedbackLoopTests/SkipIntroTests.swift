import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// Seed 001: skip the intro automatically after a ten-second countdown.
enum SkipIntro {
  static let countdown = 10

  enum State: Sendable, Equatable {
    case hidden
    case showing(secondsLeft: Int)
    case skipping
  }

  enum Event: Sendable, Equatable {
    case hasIntroStarted(Bool)
    case secondsLeftChanged(Int)
    case didSkipIntro
  }

  static func reduce(_ state: State, _ event: Event) -> State {
    switch event {
    case .didSkipIntro: .hidden
    case .hasIntroStarted(let started): started ? .showing(secondsLeft: countdown) : .hidden
    case .secondsLeftChanged(let secondsLeft): secondsLeft == 0 ? .skipping : .showing(secondsLeft: secondsLeft)
    }
  }

  /// The player: seeking takes 500 ms of the injected clock.
  struct Player: Sendable {
    let seeks: Log<String>

    func seek(toIntroEnd clock: any Clock<Duration>) async throws {
      seeks.append("seek started")
      try await clock.sleep(for: .milliseconds(500))
      seeks.append("seek done")
    }
  }

  static func feedbacks(introStarted: AsyncStream<Bool>, player: Player) -> [Feedback<State, Event>] {
    [
      // 1: the inputs.
      .input(introStarted.map { Event.hasIntroStarted($0) }),
      // 2: count down while showing.
      .react(
        request: { state in
          guard case .showing(let secondsLeft) = state else { return nil }
          return secondsLeft
        },
        effects: { secondsLeft in .after(.seconds(1), send: .secondsLeftChanged(secondsLeft - 1)) }
      ),
      // 3: seek when skipping; the seek's completion is an event.
      Feedback(onBecomingTrue: { $0 == .skipping }) { _ in
        .run { send in
          try await player.seek(toIntroEnd: send.clock)
          send(.didSkipIntro)
        }
      },
    ]
  }
}

@Suite(.runsLeftoverJobs) struct SkipIntroTests {
  @Test("seed 001: the countdown ticks each second on the injected clock, then the player seeks and the button hides")
  func countdownSeekHide() {
    let harness = Harness()
    let introStarted = AsyncStream<Bool>.makeStream()
    let seeks = Log<String>()
    let system = System(
      initial: SkipIntro.State.hidden, reduce: SkipIntro.reduce,
      feedbacks: SkipIntro.feedbacks(introStarted: introStarted.stream, player: SkipIntro.Player(seeks: seeks)),
      environment: harness.environment)
    introStarted.continuation.yield(true)
    harness.settle()
    #expect(system.state == .showing(secondsLeft: 10))
    for secondsLeft in stride(from: 9, through: 1, by: -1) {
      harness.clock.advance(by: .seconds(1))
      #expect(system.state == .showing(secondsLeft: secondsLeft))
    }
    #expect(seeks.entries.isEmpty)
    harness.clock.advance(by: .seconds(1))
    #expect(system.state == .skipping)
    #expect(seeks.entries == ["seek started"])
    harness.clock.advance(by: .milliseconds(500))
    #expect(seeks.entries == ["seek started", "seek done"])
    #expect(system.state == .hidden)
  }

  @Test("seed 001: the intro ending early hides the button and stops the countdown")
  func introEndsEarly() {
    let harness = Harness()
    let introStarted = AsyncStream<Bool>.makeStream()
    let seeks = Log<String>()
    let system = System(
      initial: SkipIntro.State.hidden, reduce: SkipIntro.reduce,
      feedbacks: SkipIntro.feedbacks(introStarted: introStarted.stream, player: SkipIntro.Player(seeks: seeks)),
      environment: harness.environment)
    introStarted.continuation.yield(true)
    harness.clock.advance(by: .seconds(3))
    #expect(system.state == .showing(secondsLeft: 7))
    introStarted.continuation.yield(false)
    harness.clock.advance(by: .seconds(30))
    #expect(system.state == .hidden)
    #expect(seeks.entries.isEmpty)
  }
}
