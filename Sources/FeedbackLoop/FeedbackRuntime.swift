/// The running part of one feedback inside one system: what it remembers
/// between states (its last query, its effects in flight).
///
/// Every method is called by the system's draining thread, one call at a
/// time, so a runtime needs no lock of its own.
class FeedbackRuntime<State: Sendable, Event: Sendable> {
  let id: FeedbackID
  /// The system that owns this runtime; it outlives it (it drops its
  /// runtimes when it stops, and effects' tasks hold the system, not the runtime).
  unowned(unsafe) let core: SystemCore<State, Event>
  let receivesStates: Bool
  let receivesEvents: Bool

  init(id: FeedbackID, core: SystemCore<State, Event>, receivesStates: Bool, receivesEvents: Bool = false) {
    self.id = id
    self.core = core
    self.receivesStates = receivesStates
    self.receivesEvents = receivesEvents
  }

  /// Called once, before the initial state is delivered: inputs start here.
  func start() {}

  /// A new state, after each reduction and for the initial state.
  func onState(_ state: State) {}

  /// An event and the state it produced, after each reduction.
  func onEvent(_ event: Event, state: State) {}

  /// Whether events of effect `number` may still be reduced.
  func isLive(_ number: UInt64) -> Bool { true }

  /// The task of effect `number` ended. A failure is reported (G12).
  func effectEnded(_ number: UInt64, outcome: EffectOutcome) {
    if case .failed(let error) = outcome { core.reportUnmappedError(error, of: effectID(number)) }
  }

  /// A value the feedback's own task produced, handed to the loop.
  func onControl(_ value: any Sendable) {}

  /// The system stops: cancel everything.
  func stop() {}

  /// The public identity of effect `number`, for monitors.
  func effectID(_ number: UInt64) -> EffectID {
    EffectID(feedback: id, number: number, trigger: nil)
  }

}
