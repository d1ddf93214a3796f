import FeedbackLoop
import FeedbackLoopTesting

/// A system with three named feedbacks, on a test clock and a manual
/// executor: "sleeper" waits three seconds for each requested nap, "failer"
/// throws, "queuer" runs its effects one after the other.
struct Jobs {
  struct State: Equatable, Sendable {
    var nap: Int?
    var failure: Int?
    var queued: Int?
    var naps = 0
  }

  enum Event: Equatable, Sendable {
    case nap(Int)
    case cancelNap
    case woke
    case fail(Int)
    case queue(Int)
    case ping
  }

  struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
  }

  static let napLength = Duration.seconds(3)

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .nap(let number): state.nap = number
    case .cancelNap: state.nap = nil
    case .woke:
      state.nap = nil
      state.naps += 1
    case .fail(let number): state.failure = number
    case .queue(let number): state.queued = number
    case .ping: break
    }
  }

  static var feedbacks: [Feedback<State, Event>] {
    [
      Feedback.query(\.nap, name: "sleeper") { _ in .after(napLength, send: .woke) },
      Feedback.query(\.failure, name: "failer") { _ in .run { _ in throw Boom() } },
      Feedback.query(\.queued, strategy: .queue, name: "queuer") { _ in
        .run { send in try await send.clock.sleep(for: .seconds(1)) }
      },
    ]
  }

  let executor = ManualTaskExecutor()
  let clock: TestClock
  let logs = LogRecorder()
  let environment: SystemEnvironment

  init(eventBuffer: EventBufferPolicy = .unbounded) {
    clock = TestClock(executor: executor)
    environment = SystemEnvironment(
      clock: clock, effectExecutor: executor, logger: logs.logger, eventBuffer: eventBuffer)
  }

  func makeSystem(monitor: SystemMonitor<State, Event>) -> System<State, Event> {
    System(initial: State(), reduce: Self.reduce, feedbacks: Self.feedbacks, environment: environment, monitor: monitor)
  }

  func settle() { executor.runUntilIdle() }
}
