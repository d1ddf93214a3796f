import FeedbackLoop

enum Lookup {
  /// Everything the screen shows: the word typed so far, and its
  /// definition once it has one.
  struct State: Sendable, Equatable {
    var word = ""
    var definition: String?
  }
}
