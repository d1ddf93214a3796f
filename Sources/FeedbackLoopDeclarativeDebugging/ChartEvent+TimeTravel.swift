import FeedbackLoopDebugging
import FeedbackLoopDeclarative

/// A statechart's event carries a jump (`ChartEvent.travel(to:)`) and the
/// chart's reducer sets the state: a `TimeMachine` drives a statechart's
/// system with no code of the chart's.
///
/// ```swift
/// let recorder = Recorder<ChartSnapshot<Player>, ChartEvent<Player.Event>>()
/// let player = chart.start(context: Player(), monitor: recorder.monitor)
/// TimeMachine(system: player, recorder: recorder).jump(to: 2)
/// ```
extension ChartEvent: AnyStateTravelEvent {}
