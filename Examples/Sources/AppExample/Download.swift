import FeedbackLoop

/// One download, a system of its own: it makes progress one tenth a second
/// on the clock while it runs, pauses and resumes, fails where its server
/// says, and retries from where it stopped.
public enum Download {
  public struct State: Equatable, Sendable {
    /// Tenths downloaded, 0 to 10.
    public var progress = 0
    public var isPaused = false
    public var isFailed = false
    /// Where the server drops the connection once, if it does.
    public var failsAt: Int?

    public init(failsAt: Int? = nil) { self.failsAt = failsAt }

    public var isDone: Bool { progress >= 10 }
    public var isRunning: Bool { !isDone && !isPaused && !isFailed }
  }

  public enum Event: Equatable, Sendable {
    case progressed
    case pause
    case resume
    case retry
  }

  public static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .progressed:
      guard state.isRunning else { return }
      state.progress += 1
      if state.progress == state.failsAt {
        state.isFailed = true
        state.failsAt = nil
      }
    case .pause: state.isPaused = true
    case .resume: state.isPaused = false
    case .retry: state.isFailed = false
    }
  }

  /// A tenth every 100 ms while running: the query is the progress, so each
  /// tenth starts the next timer, and a pause or a failure cancels it.
  public static let feedbacks: [Feedback<State, Event>] = [
    Feedback.query({ $0.isRunning ? $0.progress : nil }, name: "transfer") { _ in
      .after(.milliseconds(100), send: .progressed)
    }
  ]

  public static func system(failsAt: Int?, environment: SystemEnvironment) -> System<State, Event> {
    System(initial: State(failsAt: failsAt), reduce: reduce, feedbacks: feedbacks, environment: environment)
  }
}
