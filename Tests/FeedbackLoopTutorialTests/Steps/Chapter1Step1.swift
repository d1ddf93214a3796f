// Written by Scripts/tutorial-code from the tutorial's code files
// (Sources/FeedbackLoop/Documentation.docc/Resources): do not edit,
// edit those and run the script.
import FeedbackLoop

/// The reader's package after step 1 of chapter 1.
enum Chapter1Step1 {
  // MARK: lookup-01-01.swift

  enum Lookup {
    /// Everything the screen shows: the word typed so far, and its
    /// definition once it has one.
    struct State: Sendable, Equatable {
      var word = ""
      var definition: String?
    }
  }
}
