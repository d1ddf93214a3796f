import FeedbackLoop
import Testing

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
        .query(\.request, name: "load") { request in
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
      loader.lifted(state: \.main, event: toMain).feature,
      Feature(name: "optional", reducer: loader.reducer, feedbacks: loader.feedbacks)
        .lifted(optional: \.optional, event: toOptional).feature,
      Feature(name: "items", reducer: loader.reducer, feedbacks: loader.feedbacks)
        .lifted(children: \.items, event: toItem).feature)
  }
}

/// The same parent, composed through event cases: the compiler's form.
extension Parent {
  struct MainCase: EventCase {
    func embed(_ event: Loader.Event) -> Event { .main(event) }
    func extract(_ event: Event) -> Loader.Event? { if case .main(let event) = event { event } else { nil } }
  }

  struct OptionalCase: EventCase {
    func embed(_ event: Loader.Event) -> Event { .optional(event) }
    func extract(_ event: Event) -> Loader.Event? { if case .optional(let event) = event { event } else { nil } }
  }

  struct ItemCase: ChildEventCase {
    func embed(_ id: Int, _ event: Loader.Event) -> Event { .item(id, event) }
    func extract(_ event: Event) -> (Int, Loader.Event)? {
      if case .item(let id, let event) = event { (id, event) } else { nil }
    }
  }

  static func composedFeature(gate: Gate) -> some FeatureProtocol<State, Event> {
    let loader = Loader.feature(gate: gate)
    return Feature(name: "parent", reducer: own)
      .combined(with: loader.lifted(state: \.main, event: MainCase()))
      .combined(
        with: Feature(name: "optional", reducer: loader.reducer, feedbacks: loader.feedbacks)
          .lifted(optional: \.optional, event: OptionalCase())
      )
      .combined(
        with: Feature(name: "items", reducer: loader.reducer, feedbacks: loader.feedbacks)
          .lifted(children: \.items, event: ItemCase()))
  }
}

/// How a test composes ``Parent``: through closures (`EventPath`) or
/// through event cases (`EventCase`, the compiler's form).
enum CompositionForm: String, CaseIterable, Sendable, CustomTestStringConvertible {
  case closures
  case cases

  var testDescription: String { rawValue }

  func parentFeature(gate: Gate) -> Feature<Parent.State, Parent.Event> {
    switch self {
    case .closures: Parent.feature(gate: gate)
    case .cases: Parent.composedFeature(gate: gate).feature
    }
  }
}

/// An event case that is the event itself.
struct SameEvent<Event: Sendable>: EventCase {
  func embed(_ event: Event) -> Event { event }
  func extract(_ event: Event) -> Event? { event }
}
