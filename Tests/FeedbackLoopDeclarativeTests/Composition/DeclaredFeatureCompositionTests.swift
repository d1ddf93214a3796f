import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

/// Declared systems compose like features: their transitions are a reducer
/// that lifts into a parent, with liftable feedbacks beside them.
@Suite(.runsLeftoverJobs) struct DeclaredFeatureCompositionTests {
  struct Mixer: Sendable {
    var left: any StateProtocol = Volume.VolumeState(value: 0)
    var right: any StateProtocol = Volume.VolumeState(value: 0)
  }

  enum MixerEvent: Sendable {
    case left(any EventProtocol)
    case right(any EventProtocol)
  }

  static let toLeft = EventPath<MixerEvent, any EventProtocol>(
    embed: MixerEvent.left, extract: { if case .left(let event) = $0 { event } else { nil } })
  static let toRight = EventPath<MixerEvent, any EventProtocol>(
    embed: MixerEvent.right, extract: { if case .right(let event) = $0 { event } else { nil } })

  static func value(_ state: any StateProtocol) -> Int? { (state as? Volume.VolumeState)?.value }

  @Test("a declared system's transitions lift into a parent; each child sees only its events")
  func declaredTransitionsLift() {
    let declared = DeclarativeSystem<any StateProtocol, any EventProtocol> {
      InitialState { Volume.VolumeState(value: 0) }
      Volume.transitions()
    }
    let volume = declared.feature(name: "volume")
    let mixer = Feature.combine(
      name: "mixer",
      volume.lifted(state: \Mixer.left, event: Self.toLeft).feature,
      volume.lifted(state: \Mixer.right, event: Self.toRight).feature)
    let system = System(initial: Mixer(), feature: mixer)
    system.send(.left(Volume.IncreaseEvent()))
    system.send(.left(Volume.IncreaseEvent()))
    system.send(.right(Volume.DecreaseEvent()))
    #expect(Self.value(system.state.left) == 2)
    #expect(Self.value(system.state.right) == -1)
  }

  @Test("G3 a declared feature's liftable feedback regulates its child inside the parent")
  func declaredFeatureWithLiftableFeedback() {
    let regulated = Feature<any StateProtocol, any EventProtocol>(
      name: "volume", reducer: Volume.transitions().reducer,
      feedbacks: [
        .predicate({ (DeclaredFeatureCompositionTests.value($0) ?? 0) < 5 }, whenFalse: .keepRunning) { _ in
          .send(Volume.IncreaseEvent())
        }
      ])
    let system = System(initial: Mixer(), feature: regulated.lifted(state: \Mixer.right, event: Self.toRight).feature)
    #expect(Self.value(system.state.right) == 5)
    #expect(Self.value(system.state.left) == 0)
  }

  struct ToLeft: EventCase {
    func embed(_ event: any EventProtocol) -> MixerEvent { .left(event) }
    func extract(_ event: MixerEvent) -> (any EventProtocol)? {
      if case .left(let event) = event { event } else { nil }
    }
  }

  struct ToRight: EventCase {
    func embed(_ event: any EventProtocol) -> MixerEvent { .right(event) }
    func extract(_ event: MixerEvent) -> (any EventProtocol)? {
      if case .right(let event) = event { event } else { nil }
    }
  }

  @Test("a declared system's feature composes through event cases too, and a system runs the composition")
  func declaredFeatureThroughEventCases() {
    let declared = DeclarativeSystem<any StateProtocol, any EventProtocol> {
      InitialState { Volume.VolumeState(value: 0) }
      Volume.transitions()
    }
    let volume = declared.feature(name: "volume")
    let mixer = volume.lifted(state: \Mixer.left, event: ToLeft())
      .combined(with: volume.lifted(state: \Mixer.right, event: ToRight()), name: "mixer")
    let system = System(initial: Mixer(), feature: mixer)
    system.send(.left(Volume.IncreaseEvent()))
    system.send(.left(Volume.IncreaseEvent()))
    system.send(.right(Volume.DecreaseEvent()))
    #expect(Self.value(system.state.left) == 2)
    #expect(Self.value(system.state.right) == -1)
    system.stop()
  }
}
