// Written by Scripts/tutorial-code from the tutorial's code files
// (Sources/FeedbackLoop/Documentation.docc/Resources): do not edit,
// edit those and run the script.
import FeedbackLoop

/// The reader's package after step 2 of chapter 1.
enum Chapter1Step2 {
  // MARK: lookup-01-02.swift

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
}
