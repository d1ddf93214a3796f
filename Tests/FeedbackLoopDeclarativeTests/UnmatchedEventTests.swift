import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

@Suite(.runsLeftoverJobs) struct UnmatchedEventTests {
  enum Door: Equatable, Sendable { case open, closed }
  enum Push: Equatable, Sendable { case open, close, knock }

  static let door = DeclarativeSystem<Door, Push> {
    InitialState { .closed }
    Transitions {
      From(Door.closed) { On(Push.open, transitionTo: Door.open) }
      From(Door.open) { On(Push.close, transitionTo: Door.closed) }
    }
  }

  final class Reports: @unchecked Sendable {
    // Sendable: guarded by `lock`.
    private let lock = NSLockish()
    private var stored: [String] = []
    func append(_ report: String) { lock.withLock { stored.append(report) } }
    var all: [String] { lock.withLock { stored } }
  }

  @Test func byDefaultTheStateIsKeptAndStillPublished() {
    let system = Self.door.start()
    let states = Recorder<Door>()
    let observation = system.observe { states.append($0) }
    system.send(.knock)
    #expect(system.state == .closed)
    #expect(states.all == [.closed, .closed])  // G3: an unchanged state is still a state
    observation.cancel()
  }

  @Test func reportCallsTheHandlerWithTheStateAndTheEvent() {
    let reports = Reports()
    let system = Self.door.unmatchedEvents(.report { state, event in reports.append("\(event) in \(state)") }).start()
    system.send(.knock)
    system.send(.open)
    system.send(.open)
    #expect(reports.all == ["knock in closed", "open in open"])
    #expect(system.state == .open)
  }

  @Test func thePolicyCanBeGivenWhereTheSystemStarts() {
    let reports = Reports()
    let system = System<Door, Push>(unmatchedEvents: .report { _, event in reports.append("\(event)") }) {
      InitialState { .open }
      Transitions { From(Door.open) { On(Push.close, transitionTo: Door.closed) } }
    }
    system.send(.knock)
    #expect(reports.all == ["knock"])
  }

  // Assertions stop a program only in debug builds (the library is built in
  // the configuration of the tests); exit tests run on these platforms.
  #if DEBUG && (os(macOS) || os(Linux) || os(Windows))
    @Test func failInDebugBuildsStopsTheProgramAtTheFirstUnmatchedEvent() async {
      // In a process of its own, which must stop at the unmatched event:
      // not at the matched one before it, and not after it.
      let result = await #expect(
        processExitsWith: .failure, observing: [\.standardOutputContent, \.standardErrorContent]
      ) {
        let system = UnmatchedEventTests.door.unmatchedEvents(.failInDebugBuilds).start()
        system.send(.open)
        print("reduced open: \(system.state)")
        system.send(.knock)
        print("went on after knock")
      }
      guard let result else { return }
      let output = String(decoding: result.standardOutputContent, as: UTF8.self)
      #expect(output.contains("reduced open: open"))
      #expect(!output.contains("went on after knock"))
      let errors = String(decoding: result.standardErrorContent, as: UTF8.self)
      #expect(errors.contains("no transition for knock in open"))
    }
  #endif

  @Test func reportLogsThroughTheSystemsLoggerWithoutChangingTheState() {
    // The warning goes to the environment's logger; the state is kept.
    let logs = LogRecorder()
    let system = Self.door.unmatchedEvents(.report).start(environment: SystemEnvironment(logger: logs.logger))
    system.send(.close)
    #expect(system.state == .closed)
    #expect(logs.records.map(\.level) == [.warning])
    #expect(logs.messages == ["no transition matches the event; the state is unchanged"])
  }
}
