import FeedbackLoop
import FeedbackLoopDebugging

/// A session of the app, recorded as it runs.
enum Session {
  static func start(
    service: Lookup.Service, recorder: Recorder<App.State, App.Event>,
    environment: SystemEnvironment = SystemEnvironment()
  ) -> System<App.State, App.Event> {
    System(
      initial: App.State(), feature: App.feature(service: service), environment: environment,
      monitor: recorder.monitor)
  }
}
