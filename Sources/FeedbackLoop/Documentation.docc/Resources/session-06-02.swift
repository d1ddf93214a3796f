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

  /// Feeds the recorded events through today's reducer, from the first
  /// recorded state, and reports the first state that differs.
  static func replay(
    _ moments: [Moment<App.State, App.Event>], service: Lookup.Service
  ) -> ReplayReport<App.State, App.Event> {
    Replay.check(moments, reduce: App.feature(service: service).reducer.reduce)
  }
}
