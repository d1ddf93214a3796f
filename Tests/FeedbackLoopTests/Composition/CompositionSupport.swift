import FeedbackLoop

/// A child feature that loads what its state asks for: its effect waits on a
/// gate that ignores cancellation, so a test can make it send after it was
/// cancelled.
enum Loader {
  struct State: Sendable, Equatable {
    var request: Int?
    var loaded: [Int] = []
  }

  enum Event: Sendable, Equatable {
    case load(Int)
    case loaded(Int)
    case clear
  }

  static let reducer = Reducer<State, Event> { state, event in
    switch event {
    case .load(let request): state.request = request
    case .loaded(let value):
      state.loaded.append(value)
      state.request = nil
    case .clear: state.request = nil
    }
  }

  static func feature(gate: Gate) -> Feature<State, Event> {
    Feature(
      name: "loader", reducer: reducer,
      feedbacks: [
        .lensing(\.request, name: "load") { request in
          .run { send in
            await gate.wait()
            send(.loaded(request))
          }
        }
      ])
  }
}

/// A parent holding the loader three ways: always, optionally, by id.
enum Parent {
  struct State: Sendable, Equatable {
    var main = Loader.State()
    var optional: Loader.State?
    var items: TrackedDictionary<Int, Loader.State> = [:]
    var other = 0
  }

  enum Event: Sendable, Equatable {
    case main(Loader.Event)
    case optional(Loader.Event)
    case item(Int, Loader.Event)
    case open
    case close
    case add(Int)
    case remove(Int)
    case other
  }

  static let toMain = EventPath<Event, Loader.Event>(
    embed: Event.main, extract: { if case .main(let event) = $0 { event } else { nil } })
  static let toOptional = EventPath<Event, Loader.Event>(
    embed: Event.optional, extract: { if case .optional(let event) = $0 { event } else { nil } })
  static let toItem = ChildEventPath<Event, Int, Loader.Event>(
    embed: Event.item, extract: { if case .item(let id, let event) = $0 { (id, event) } else { nil } })

  static let own = Reducer<State, Event> { state, event in
    switch event {
    case .open: state.optional = Loader.State()
    case .close: state.optional = nil
    case .add(let id): state.items[id] = Loader.State()
    case .remove(let id): state.items[id] = nil
    case .other: state.other += 1
    case .main, .optional, .item: break
    }
  }

  static func feature(gate: Gate) -> Feature<State, Event> {
    let loader = Loader.feature(gate: gate)
    return .combine(
      name: "parent",
      Feature(name: "parent", reducer: own),
      loader.lifted(state: \.main, event: toMain),
      Feature(name: "optional", reducer: loader.reducer, feedbacks: loader.feedbacks)
        .lifted(optional: \.optional, event: toOptional),
      Feature(name: "items", reducer: loader.reducer, feedbacks: loader.feedbacks)
        .lifted(children: \.items, event: toItem))
  }
}
