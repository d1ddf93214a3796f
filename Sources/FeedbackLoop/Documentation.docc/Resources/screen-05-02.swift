import FeedbackLoop
import FeedbackLoopUI
import Observation

/// The app's screen, whatever draws it: a store over the app's system.
@MainActor
enum Screen {
  static func makeStore(
    service: Lookup.Service, environment: SystemEnvironment = SystemEnvironment()
  ) -> Store<App.State, App.Event> {
    Store(
      System(
        initial: App.State(), feature: App.feature(service: service), isolation: .mainActor,
        environment: environment))
  }

  /// What the screen draws, read through Observation as SwiftUI reads a
  /// view's body: `redraw` is called when what it read changes.
  static func draw(
    _ store: Store<App.State, App.Event>, redraw: @escaping @Sendable () -> Void
  ) -> String {
    withObservationTracking {
      "\(store.lookup.word): \(store.lookup.definition ?? "…")"
    } onChange: {
      redraw()
    }
  }
}
