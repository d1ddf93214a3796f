import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

@Suite(.runsLeftoverJobs) struct MediatorTests {
  struct LoadingState: StateProtocol, Equatable {}
  struct LoadedState: StateProtocol, Equatable { let data: String }
  struct DataIsLoaded: EventProtocol { let data: String }
  struct LoadedDoneEvent: EventProtocol {}
  struct WaitingState: StateProtocol, Equatable {}
  struct DoneState: StateProtocol, Equatable { let data: String }

  static func systemA() -> System<any StateProtocol, any EventProtocol> {
    System {
      InitialState { LoadingState() }
      Transitions {
        From(LoadingState.self) {
          On(DataIsLoaded.self, transitionTo: LoadedState.self) { event in LoadedState(data: event.data) }
        }
      }
    }
  }

  static func systemB() -> System<any StateProtocol, any EventProtocol> {
    System {
      InitialState { WaitingState() }
      Transitions {
        From(WaitingState.self) {
          On(LoadedDoneEvent.self, transitionTo: DoneState(data: "via mediator"))
          On(DataIsLoaded.self, transitionTo: DoneState.self) { event in DoneState(data: event.data) }
        }
      }
    }
  }

  @Test func aPassthroughMediatorCarriesAStateOfOneSystemToAnother() {
    let mediator = PassthroughMediator<Int>()
    let systemA = Self.systemA()
      .attach(to: mediator, onSystemState: LoadedState.self, emitMediatorValue: { _ in 1701 })
    let systemB = Self.systemB()
      .attach(to: mediator, onMediatorValue: 1701, emitSystemEvent: { _ in LoadedDoneEvent() })
    #expect(systemB.state is WaitingState)
    systemA.send(DataIsLoaded(data: "x"))
    #expect(systemB.state as? DoneState == DoneState(data: "via mediator"))
  }

  @Test func aPassthroughMediatorIgnoresOtherValuesAndKeepsNone() {
    let mediator = PassthroughMediator<Int>()
    mediator.send(1701)  // before anyone attached: lost
    let systemB = Self.systemB()
      .attach(to: mediator, onMediatorValue: 1701, emitSystemEvent: { _ in LoadedDoneEvent() })
    mediator.send(42)
    #expect(systemB.state is WaitingState)
    mediator.send(1701)
    #expect(systemB.state is DoneState)
  }

  @Test func aCurrentValueMediatorGivesItsValueToANewSubscriber() {
    let mediator = CurrentValueMediator(1701)
    #expect(mediator.value == 1701)
    let systemB = Self.systemB()
      .attach(to: mediator, onMediatorValue: 1701, emitSystemEvent: { _ in LoadedDoneEvent() })
    #expect(systemB.state is DoneState)
    mediator.send(3)
    #expect(mediator.value == 3)
  }

  @Test func aSubscriptionEndsWhenCancelled() {
    let mediator = PassthroughMediator<Int>()
    let received = Recorder<Int>()
    let subscription = mediator.subscribe { received.append($0) }
    mediator.send(1)
    subscription.cancel()
    mediator.send(2)
    #expect(received.all == [1])
  }

  @Test func twoSystemsAttachWithoutAMediator() {
    let systemA = Self.systemA()
    let systemB = Self.systemB()
    systemA.attach(to: systemB, onSystemStateType: LoadedState.self) { stateFromA in
      DataIsLoaded(data: stateFromA.data)
    }
    systemA.send(DataIsLoaded(data: "from A"))
    #expect(systemB.state as? DoneState == DoneState(data: "from A"))
  }

  @Test func attachedSystemsDoNotKeepEachOtherAlive() {
    weak var weakA: System<any StateProtocol, any EventProtocol>?
    weak var weakB: System<any StateProtocol, any EventProtocol>?
    let mediator = PassthroughMediator<Int>()
    do {
      let systemA = Self.systemA()
      let systemB = Self.systemB()
      systemA.attach(to: systemB, onSystemStateType: LoadedState.self) { DataIsLoaded(data: $0.data) }
      systemB.attach(to: systemA, onSystemStateType: DoneState.self) { DataIsLoaded(data: $0.data) }
      systemA.attach(to: mediator, onSystemState: LoadedState.self, emitMediatorValue: { _ in 1 })
      systemB.attach(to: mediator, onMediatorValue: 1, emitSystemEvent: { _ in LoadedDoneEvent() })
      weakA = systemA
      weakB = systemB
    }
    #expect(weakA == nil)
    #expect(weakB == nil)
    mediator.send(1)  // the released system's subscription lets go
  }
}
