import FeedbackLoop
import FeedbackLoopTesting
import Testing

@testable import FeedbackLoopDeclarative

/// A declared system lifted as a feature runs in its parent's system: what
/// it chose about that system is kept where it can be, and said out loud
/// where it cannot.
@Suite(.runsLeftoverJobs) struct DeclaredFeatureLiftTests {
  enum Door: Equatable, Sendable { case open, closed }
  enum Push: Equatable, Sendable { case open, close, knock }

  struct House: Sendable { var door = Door.closed }
  enum HouseEvent: Sendable { case door(Push) }

  static let toDoor = EventPath<HouseEvent, Push>(
    embed: HouseEvent.door, extract: { if case .door(let push) = $0 { push } else { nil } })

  static let door = DeclarativeSystem<Door, Push> {
    InitialState { .closed }
    Transitions {
      From(Door.closed) { On(Push.open, transitionTo: Door.open) }
      From(Door.open) { On(Push.close, transitionTo: Door.closed) }
    }
  }

  static let doorOnTheMainActor = DeclarativeSystem<Door, Push> {
    InitialState { .closed }
    Transitions { From(Door.closed) { On(Push.open, transitionTo: Door.open) } }
      .isolation(.mainActor)
  }

  static func lift(
    _ declared: DeclarativeSystem<Door, Push>, name: String = "door"
  ) -> (Feature<House, HouseEvent>, LogRecorder) {
    let logs = LogRecorder()
    let feature = declared.feature(name: name, feedbacks: [], loggingTo: SystemEnvironment(logger: logs.logger))
    return (feature.lifted(state: \House.door, event: Self.toDoor).feature, logs)
  }

  @Test("lifting a declared system that chose an executor logs one warning naming the feature")
  func executorIsNotKept() {
    let (_, logs) = Self.lift(Self.door.effectExecutor(ManualTaskExecutor()), name: "frontDoor")
    #expect(logs.records.count == 1)
    #expect(logs.records.first?.level == .warning)
    #expect(logs.messages.first?.contains("\"frontDoor\" chose effectExecutor(_:) on the system") == true)
  }

  @Test("lifting a declared system whose transitions chose an isolation logs one warning naming the feature")
  func transitionsIsolationIsNotKept() {
    let (_, logs) = Self.lift(Self.doorOnTheMainActor.effectExecutor(ManualTaskExecutor()), name: "backDoor")
    #expect(logs.records.count == 1)
    #expect(
      logs.messages.first?.contains(
        "\"backDoor\" chose effectExecutor(_:) on the system and Transitions.isolation(_:)") == true)
    let (_, isolationOnly) = Self.lift(Self.doorOnTheMainActor)
    #expect(isolationOnly.messages.count == 1)
    #expect(
      isolationOnly.messages.first?.contains("chose Transitions.isolation(_:), which a feature cannot keep") == true)
  }

  @Test("lifting a declared system without an isolation or executor logs nothing, even with an unmatched policy")
  func plainLiftIsQuiet() {
    let (_, plain) = Self.lift(Self.door)
    let (_, reporting) = Self.lift(Self.door.unmatchedEvents(.report))
    #expect(plain.records.isEmpty)
    #expect(reporting.records.isEmpty)
  }

  @Test("a lifted declared system keeps its unmatched-events handler, called inside the parent")
  func unmatchedHandlerIsKept() {
    let reports = Recorder<String>()
    let (feature, _) = Self.lift(
      Self.door.unmatchedEvents(.report { state, event in reports.append("\(event) in \(state)") }))
    let system = System(initial: House(), feature: feature)
    system.send(.door(.knock))
    system.send(.door(.open))
    system.send(.door(.open))
    #expect(reports.all == ["knock in closed", "open in open"])
    #expect(system.state.door == .open)
    system.stop()
  }

  @Test("a lifted declared system that reports unmatched events logs them, with the event and the state")
  func unmatchedReportIsLogged() {
    let (feature, logs) = Self.lift(Self.door.unmatchedEvents(.report))
    let system = System(initial: House(), feature: feature)
    system.send(.door(.knock))
    #expect(logs.messages == ["no transition matches the event; the state is unchanged"])
    #expect(logs.records.first?.metadata == ["event": "knock", "state": "closed"])
    system.stop()
  }
}
