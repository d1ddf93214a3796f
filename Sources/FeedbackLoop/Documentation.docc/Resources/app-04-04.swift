import FeedbackLoop

/// The app: both screens, side by side.
enum App {
  struct State: Sendable, Equatable {
    var lookup = Lookup.State()
    var history = History.State()
  }

  enum Event: Sendable, Equatable {
    case lookup(Lookup.Event)
    case history(History.Event)
  }

  /// The way from an app event to a screen's event, and back.
  static let toLookup = EventPath<Event, Lookup.Event>(
    embed: Event.lookup,
    extract: { if case .lookup(let event) = $0 { event } else { nil } })

  static let toHistory = EventPath<Event, History.Event>(
    embed: Event.history,
    extract: { if case .history(let event) = $0 { event } else { nil } })

  /// What the screens do to each other: a word defined goes to the top of
  /// the history, and a word selected there is looked up again.
  static let reducer = Reducer<State, Event> { state, event in
    switch event {
    case .lookup(.defined):
      state.history.words.removeAll { $0 == state.lookup.word }
      state.history.words.insert(state.lookup.word, at: 0)
    case .history(.selected(let word)):
      Lookup.reducer.reduce(&state.lookup, .wordChanged(word))
    case .lookup, .history:
      break
    }
  }

  static func feature(service: Lookup.Service) -> Feature<State, Event> {
    .combine(
      name: "app",
      Lookup.feature(service: service).lifted(state: \.lookup, event: toLookup).feature,
      History.feature.lifted(state: \.history, event: toHistory).feature,
      Feature(name: "app", reducer: reducer)
    )
  }
}
