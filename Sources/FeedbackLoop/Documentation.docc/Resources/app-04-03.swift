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
}
