import FeedbackLoop

/// The player HUD: a tap toggles it; it hides 3 seconds after the
/// last interaction, and each interaction starts the 3 seconds again.
enum HUD {
  struct State: Equatable, Sendable {
    var isVisible = false
    /// How many times the user interacted: each one restarts the timer.
    var interactions = 0
  }

  enum Event: Equatable, Sendable {
    case tap
    case interact
    case hide
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .tap:
      state.isVisible.toggle()
      state.interactions += 1
    case .interact:
      state.interactions += 1
    case .hide:
      state.isVisible = false
    }
  }

  static let hideDelay: Duration = .seconds(3)

  /// While the HUD shows, one timer per interaction: a new interaction
  /// changes the query, which replaces the timer (RxSwift's `flatMapLatest`).
  static let feedbacks: [Feedback<State, Event>] = [
    Feedback.query(
      { $0.isVisible ? $0.interactions : nil },
      name: "hide after the last interaction"
    ) { _ in
      .after(hideDelay, send: .hide)
    }
  ]
}
