import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

/// The first example, written as the Feedbacks library writes it: a volume
/// regulated towards a target by two feedbacks.
enum Volume {
  struct VolumeState: StateProtocol, Equatable { let value: Int }
  struct IncreaseEvent: EventProtocol {}
  struct DecreaseEvent: EventProtocol {}

  static func transitions() -> Transitions<any StateProtocol, any EventProtocol> {
    Transitions {
      From(VolumeState.self) { state in
        On(IncreaseEvent.self, transitionTo: VolumeState(value: state.value + 1))
        On(DecreaseEvent.self, transitionTo: VolumeState(value: state.value - 1))
      }
    }
  }

  static func system(initial: Int, target targetedVolume: Int) -> DeclarativeSystem<
    any StateProtocol, any EventProtocol
  > {
    DeclarativeSystem {
      InitialState {
        VolumeState(value: initial)
      }
      Feedbacks {
        Feedback.on(VolumeState.self, strategy: .queue) { state in
          if state.value >= targetedVolume { return .none }
          return .send(IncreaseEvent())
        }
        Feedback.on(VolumeState.self, strategy: .queue) { state in
          if state.value <= targetedVolume { return .none }
          return .send(DecreaseEvent())
        }
      }
      Transitions {
        From(VolumeState.self) { state in
          On(IncreaseEvent.self, transitionTo: VolumeState(value: state.value + 1))
          On(DecreaseEvent.self, transitionTo: VolumeState(value: state.value - 1))
        }
      }
    }
  }
}

@Suite(.runsLeftoverJobs) struct VolumeRegulatorTests {
  @Test func theVolumeRisesToTheTarget() {
    let system = Volume.system(initial: 10, target: 15).start()
    #expect(system.state as? Volume.VolumeState == Volume.VolumeState(value: 15))
  }

  @Test func theVolumeFallsToTheTarget() {
    let system = Volume.system(initial: 20, target: 15).start()
    #expect(system.state as? Volume.VolumeState == Volume.VolumeState(value: 15))
  }

  @Test func theFeedbacksLibrarysSyntaxDeclaresAndStartsASystemInOneStep() {
    let targetedVolume = 15
    let system = System {
      InitialState {
        Volume.VolumeState(value: 10)
      }
      Feedbacks {
        Feedback.on(Volume.VolumeState.self, strategy: .queue) { state in
          state.value >= targetedVolume ? .none : .send(Volume.IncreaseEvent())
        }
      }
      Transitions {
        From(Volume.VolumeState.self) { state in
          On(Volume.IncreaseEvent.self, transitionTo: Volume.VolumeState(value: state.value + 1))
          On(Volume.DecreaseEvent.self, transitionTo: Volume.VolumeState(value: state.value - 1))
        }
      }
    }
    #expect(system.state as? Volume.VolumeState == Volume.VolumeState(value: 15))
    system.send(Volume.DecreaseEvent())
    #expect(system.state as? Volume.VolumeState == Volume.VolumeState(value: 15))
  }

  @Test func everyStateOnTheWayIsObserved() async {
    let system = Volume.system(initial: 12, target: 15).start()
    let values = await system.states.prefix(1).map { ($0 as? Volume.VolumeState)?.value }.reduce(into: []) {
      $0.append($1)
    }
    #expect(values == [15])
  }

  @Test func theTransitionsAlone() {
    let transitions = Volume.transitions()
    let next = transitions.reduce(Volume.VolumeState(value: 10), Volume.IncreaseEvent())
    #expect(next as? Volume.VolumeState == Volume.VolumeState(value: 11))
    #expect(transitions.nextState(from: Volume.VolumeState(value: 10), on: Volume.DecreaseEvent()) != nil)
  }
}
