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
}
