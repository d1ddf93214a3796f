import FeedbackLoop

enum Lookup {
  /// Everything the screen shows: the word typed so far, and its
  /// definition once it has one.
  struct State: Sendable, Equatable {
    var word = ""
    var definition: String?
  }

  /// Everything that can happen: the user types, the dictionary answers.
  enum Event: Sendable, Equatable {
    case wordChanged(String)
    case defined(String)
    case notFound
  }

  /// The only place the state changes.
  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .wordChanged(let word):
      state.word = word
      state.definition = nil
    case .defined(let definition):
      state.definition = definition
    case .notFound:
      state.definition = "No definition of \(state.word)."
    }
  }
}
