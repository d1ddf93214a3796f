import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// A HUD as a feature: shown on a tap, hidden three seconds after the last.
enum Toast {
  struct State: Sendable, Equatable {
    var isVisible = false
    var taps = 0
  }

  enum Event: Sendable, Equatable { case tap, hide }

  static let feature = Feature<State, Event>(
    name: "toast",
    reducer: Reducer { state, event in
      switch event {
      case .tap:
        state.isVisible = true
        state.taps += 1
      case .hide: state.isVisible = false
      }
    },
    feedbacks: [
      .query({ $0.isVisible ? $0.taps : nil }, name: "hide") { _ in .after(.seconds(3), send: .hide) }
    ])
}

/// An app that holds an optional toast and toasts by id.
enum Shell {
  struct State: Sendable, Equatable {
    var toast: Toast.State?
    var toasts: TrackedDictionary<Int, Toast.State> = [:]
  }

  enum Event: Sendable, Equatable {
    case open, close
    case toast(Toast.Event)
    case add(Int)
    case item(Int, Toast.Event)
  }

  static let own = Reducer<State, Event> { state, event in
    switch event {
    case .open: state.toast = Toast.State()
    case .close: state.toast = nil
    case .add(let id): state.toasts[id] = Toast.State()
    case .toast, .item: break
    }
  }

  static let feature = Feature<State, Event>.combine(
    name: "shell",
    Feature(name: "shell", reducer: own),
    Toast.feature.lifted(
      optional: \.toast,
      event: EventPath(embed: Event.toast, extract: { if case .toast(let event) = $0 { event } else { nil } })
    ).feature,
    Feature(name: "toasts", reducer: Toast.feature.reducer, feedbacks: Toast.feature.feedbacks).lifted(
      children: \.toasts,
      event: ChildEventPath(
        embed: Event.item, extract: { if case .item(let id, let event) = $0 { (id, event) } else { nil } })
    ).feature)
}

/// The same shell, composed through event cases: the compiler's form.
extension Shell {
  struct ToToast: EventCase {
    func embed(_ event: Toast.Event) -> Event { .toast(event) }
    func extract(_ event: Event) -> Toast.Event? { if case .toast(let event) = event { event } else { nil } }
  }

  struct ToItem: ChildEventCase {
    func embed(_ id: Int, _ event: Toast.Event) -> Event { .item(id, event) }
    func extract(_ event: Event) -> (Int, Toast.Event)? {
      if case .item(let id, let event) = event { (id, event) } else { nil }
    }
  }

  static let composed = Feature(name: "shell", reducer: own)
    .combined(with: Toast.feature.lifted(optional: \State.toast, event: ToToast()))
    .combined(
      with: Feature(name: "toasts", reducer: Toast.feature.reducer, feedbacks: Toast.feature.feedbacks)
        .lifted(children: \State.toasts, event: ToItem()))
}

@Suite("Composition in the testing kit", .runsLeftoverJobs)
struct ComposedAppTests {
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  static func shell(composedThroughCases: Bool) -> TestSystem<Shell.State, Shell.Event> {
    composedThroughCases
      ? TestSystem(initial: Shell.State(), feature: Shell.composed)
      : TestSystem(initial: Shell.State(), feature: Shell.feature)
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test(arguments: [false, true])
  func aComposedAppIsTestedExhaustivelyWithChildEffectsNamedAfterTheirChild(composedThroughCases: Bool) {
    let app = Self.shell(composedThroughCases: composedThroughCases)
    app.send(.open) { $0.toast = Toast.State() }
    app.send(.toast(.tap)) {
      $0.toast?.isVisible = true
      $0.toast?.taps = 1
    }
    app.send(.add(7)) { $0.toasts[7] = Toast.State() }
    app.send(.item(7, .tap)) {
      $0.toasts[7]?.isVisible = true
      $0.toasts[7]?.taps = 1
    }
    #expect(app.effectsInFlight.map(\.feedback.name) == ["toast/hide", "toasts[id]/hide"])
    #expect(app.effectsInFlight.map(\.trigger) == ["1", "7"])
    app.advance(by: .seconds(3))
    app.receive(.toast(.hide)) { $0.toast?.isVisible = false }
    app.receive(.item(7, .hide)) { $0.toasts[7]?.isVisible = false }
    app.send(.toast(.tap)) {
      $0.toast?.isVisible = true
      $0.toast?.taps = 2
    }
    // Closing the toast cancels its timer: nothing is left in flight.
    app.send(.close) { $0.toast = nil }
    #expect(app.effectsInFlight.isEmpty)
    app.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test(arguments: [false, true])
  func anEventForAMissingChildShowsInTheTimelineAsDiscarded(composedThroughCases: Bool) {
    let app = Self.shell(composedThroughCases: composedThroughCases)
    app.send(.item(3, .tap))
    app.send(.toast(.tap))
    #expect(app.state == Shell.State())
    let text = app.timeline.description
    #expect(text.contains("no such child"))
    app.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aChildFeatureIsTestedAloneUnchanged() {
    let toast = TestSystem(initial: Toast.State(), feature: Toast.feature)
    toast.send(.tap) {
      $0.isVisible = true
      $0.taps = 1
    }
    #expect(toast.effectsInFlight.map(\.feedback.name) == ["hide"])
    toast.advance(by: .seconds(3))
    toast.receive(.hide) { $0.isVisible = false }
    toast.finish()
  }
}
