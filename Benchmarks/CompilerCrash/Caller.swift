// A caller in another module, as the library's tests are: two chains of four
// lifts (one level behind a computed property) reduce the same events in one
// loop, their states compared. Cut down from the composition tests.
import Lifts

enum Loader {
  struct State: Sendable, Equatable {
    var request: Int?
    var loaded: [Int] = []
  }
  enum Event: Sendable, Equatable { case load(Int), loaded(Int), clear }
  static let feature = Feature<State, Event> { state, event in
    switch event {
    case .load(let request): state.request = request
    case .loaded(let value):
      state.loaded.append(value)
      state.request = nil
    case .clear: state.request = nil
    }
  }
}
enum Parent {
  struct State: Sendable, Equatable {
    var main = Loader.State()
    var optional: Loader.State?
    var items: [Int: Loader.State] = [:]
    var other = 0
  }
  enum Event: Sendable, Equatable {
    case main(Loader.Event), optional(Loader.Event), item(Int, Loader.Event), open, close, add(Int),
      remove(Int), other
  }
  struct MainCase: EventCase {
    func extract(_ event: Event) -> Loader.Event? {
      if case .main(let event) = event { event } else { nil }
    }
  }
  static func composedFeature() -> some FeatureProtocol<State, Event> {
    Loader.feature.lifted(state: \.main, event: MainCase())
  }
}
struct SameEvent<Event: Sendable>: EventCase {
  func extract(_ event: Event) -> Event? { event }
}
struct Padded<Inner: Sendable & Equatable>: Sendable, Equatable {
  var before = 0
  var flag = false
  var inner: Inner
  var after = 0
}
struct Computed<Inner: Sendable & Equatable>: Sendable, Equatable {
  var stored: Inner
  var inner: Inner {
    get { stored }
    set { stored = newValue }
  }
}
typealias Deep = Padded<Computed<Padded<Padded<Parent.State>>>>

func randomEvents(count: Int) -> [Parent.Event] {
  (0..<count).map { i in
    switch i % 8 {
    case 0: .main(.load(i))
    case 1: .optional(.loaded(i))
    case 2: .item(i % 4, .clear)
    case 3: .open
    case 4: .close
    case 5: .add(i % 4)
    case 6: .remove(i % 4)
    default: .other
    }
  }
}

public func deepLiftsReduceAlike() {
  let cases = Parent.composedFeature()
    .lifted(state: \Padded<Parent.State>.inner, event: SameEvent())
    .lifted(state: \Padded<Padded<Parent.State>>.inner, event: SameEvent())
    .lifted(state: \Computed<Padded<Padded<Parent.State>>>.inner, event: SameEvent())
    .lifted(state: \Deep.inner, event: SameEvent())
  let other = Parent.composedFeature()
    .lifted(state: \Padded<Parent.State>.inner, event: SameEvent())
    .lifted(state: \Padded<Padded<Parent.State>>.inner, event: SameEvent())
    .lifted(state: \Computed<Padded<Padded<Parent.State>>>.inner, event: SameEvent())
    .lifted(state: \Deep.inner, event: SameEvent())
  let start = Deep(inner: Computed(stored: Padded(inner: Padded(inner: Parent.State()))))
  var byOther = start
  var byCases = start
  for event in randomEvents(count: 300) {
    let closureDiscard = other.reduceReportingDiscards(&byOther, event)
    let caseDiscard = cases.reduceReportingDiscards(&byCases, event)
    if !(byCases == byOther) { print("after \(event)") }
    if !(caseDiscard == closureDiscard) { print("after \(event)") }
  }
  if !(byCases.before == 0 && byCases.after == 0 && !byCases.flag) { print("bad") }
  if !(byCases.inner.stored.before == 0 && byCases.inner.stored.inner.after == 0) { print("bad") }
}
