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
}
