import FeedbackLoop

/// The second screen: the words looked up so far, the last first.
enum History {
  struct State: Sendable, Equatable {
    var words: [String] = []
  }

  enum Event: Sendable, Equatable {
    case selected(String)
    case cleared
  }

  static let reducer = Reducer<State, Event> { state, event in
    switch event {
    case .selected:
      break  // The app decides what a selected word does.
    case .cleared:
      state.words = []
    }
  }

  static let feature = Feature(name: "history", reducer: reducer)
}
