import FeedbackLoopCycle
import FeedbackLoopDebugging

/// A Cycle application's event carries a jump (`CycleEvent.travel(to:)`)
/// and its router's reducer sets the reel: a `TimeMachine` drives a Cycle
/// application with no code of the application's.
///
/// ```swift
/// let recorder = Recorder<Reel<App.Frame>, CycleEvent>()
/// let app = router.start(monitor: recorder.monitor)
/// TimeMachine(system: app, recorder: recorder).jump(to: 3)
/// ```
extension CycleEvent: AnyStateTravelEvent {}
