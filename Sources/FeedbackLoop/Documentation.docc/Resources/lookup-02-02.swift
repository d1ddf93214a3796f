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

  /// Where definitions come from: a server in the app, a fake in tests.
  struct Service: Sendable {
    var define: @Sendable (String) async throws -> String
  }

  /// The word to look up: the one typed, until it has a definition.
  static func wordToLookUp(_ state: State) -> String? {
    state.word.isEmpty || state.definition != nil ? nil : state.word
  }

  static func feedbacks(service: Service) -> [Feedback<State, Event>] {
    [
      Feedback.query(wordToLookUp, name: "define") { word in
        .task {
          .defined(try await service.define(word))
        } catch: { _ in
          .notFound
        }
      }
    ]
  }
}
