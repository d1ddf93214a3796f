import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

// The code of Step 1 of the Declaring a System article (Sources/
// FeedbackLoopDeclarative/Documentation.docc/DeclaringASystem.md): the three
// shapes of states and events. `DeclaringASystemArticleTests` checks that
// every Swift block of that step appears here (whitespace aside).
enum DeclaringASystem {
  // MARK: Plain enums

  enum Light: Equatable, Sendable {
    case off
    case on
  }

  enum Press: Equatable, Sendable {
    case toggle
  }

  static let lightSwitch = Transitions<Light, Press> {
    From(Light.off) {
      On(Press.toggle, transitionTo: Light.on)
    }
    From(Light.on) {
      On(Press.toggle, transitionTo: Light.off)
    }
  }

  static let sameSwitch = Transitions<Light, Press> {
    From(.value(Light.off)) { _ in
      On(Press.toggle, transitionTo: Light.on)
    }
    From(.value(Light.on)) { _ in
      On(Press.toggle, transitionTo: Light.off)
    }
  }

  // MARK: Enums with associated values

  enum Phase: Equatable, Sendable {
    case loading(page: Int)
    case loaded(page: Int, items: [String])
    case failed(page: Int)
  }

  enum Action: Equatable, Sendable {
    case loaded([String])
    case failed
    case refresh
  }

  // MARK: Types conforming to State and Event

  struct LoadingState: StateProtocol, Equatable { let page: Int }
  struct LoadedState: StateProtocol, Equatable {
    let page: Int
    let data: [String]
  }
  struct ErrorState: StateProtocol, Equatable {}
  struct DataIsLoaded: EventProtocol { let data: [String] }
  struct LoadingHasFailed: EventProtocol {}
  struct RefreshEvent: EventProtocol {}

  static let loadingTransitions = From(LoadingState.self) { state in
    On(DataIsLoaded.self, transitionTo: LoadedState.self) { event in
      LoadedState(page: state.page, data: event.data)
    }
    On(LoadingHasFailed.self, transitionTo: ErrorState())
  }
}

extension DeclaringASystem.Phase {
  var loading: Int? { if case .loading(let page) = self { page } else { nil } }
  var loaded: (page: Int, items: [String])? {
    if case .loaded(let page, let items) = self { (page, items) } else { nil }
  }
  var failed: Int? { if case .failed(let page) = self { page } else { nil } }
}

extension DeclaringASystem.Action {
  var loadedItems: [String]? { if case .loaded(let items) = self { items } else { nil } }
}

@Suite(.runsLeftoverJobs) struct DeclaringASystemArticleTests {
  typealias Light = DeclaringASystem.Light
  typealias Press = DeclaringASystem.Press

  @Test("the article's first step shows the code these tests compile, block by block")
  func articleShowsThisCode() throws {
    let article = try ArticleCode(
      article: "Sources/FeedbackLoopDeclarative/Documentation.docc/DeclaringASystem.md",
      section: "Step 1: States and events")
    #expect(article.blocks.count == 6)
    let missing = try article.blocksMissing(
      fromAnyOf: ["Tests/FeedbackLoopDeclarativeTests/DeclaringASystemArticle.swift"], namespace: "DeclaringASystem")
    #expect(missing.isEmpty, "blocks of the article that no test compiles:\n\(missing.joined(separator: "\n---\n"))")
  }

  @Test("plain enums: a light switch declared by value toggles")
  func plainEnums() {
    let lightSwitch = DeclaringASystem.lightSwitch
    let light = System<Light, Press> {
      InitialState { Light.off }
      Feedbacks {}
      lightSwitch
    }
    light.send(.toggle)
    #expect(light.state == .on)
    light.send(.toggle)
    #expect(light.state == .off)
  }

  @Test("plain enums: From(.value(_:)) matches the same states as From(_:)")
  func valuePatterns() {
    for state in [Light.off, .on] {
      #expect(
        DeclaringASystem.sameSwitch.reduce(state, .toggle) == DeclaringASystem.lightSwitch.reduce(state, .toggle))
    }
    #expect(DeclaringASystem.sameSwitch.reduce(.off, .toggle) == .on)
  }

  @Test("associated values: the case properties extract what the transitions match")
  func associatedValues() {
    let transitions = Transitions<DeclaringASystem.Phase, DeclaringASystem.Action> {
      From(.case("loading", \DeclaringASystem.Phase.loading)) { page in
        On(.case("loaded", \DeclaringASystem.Action.loadedItems), transitionTo: .case("loaded")) { items in
          .loaded(page: page(), items: items)
        }
        On(DeclaringASystem.Action.failed, transitionTo: .case("failed")) { .failed(page: page()) }
      }
    }
    #expect(transitions.reduce(.loading(page: 3), .loaded(["a"])) == .loaded(page: 3, items: ["a"]))
    #expect(transitions.reduce(.loading(page: 3), .failed) == .failed(page: 3))
  }

  @Test("the protocol style: loading goes to loaded with the page it loaded")
  func protocolStyle() {
    let transitions = Transitions { DeclaringASystem.loadingTransitions }
    let next = transitions.reduce(
      DeclaringASystem.LoadingState(page: 2), DeclaringASystem.DataIsLoaded(data: ["a"]))
    #expect(next as? DeclaringASystem.LoadedState == DeclaringASystem.LoadedState(page: 2, data: ["a"]))
  }
}
