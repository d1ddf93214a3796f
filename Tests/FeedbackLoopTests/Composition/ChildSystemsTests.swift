import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// A download as a system of its own: progress, pause, retry.
enum Download {
  struct State: Sendable, Equatable {
    var progress = 0
    var paused = false
    var failed = false
    var done: Bool { progress >= 3 }
  }

  enum Event: Sendable, Equatable { case tick, pause, resume, fail, retry }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .tick where !state.paused && !state.failed: state.progress += 1
    case .tick: break
    case .pause: state.paused = true
    case .resume: state.paused = false
    case .fail: state.failed = true
    case .retry:
      state.failed = false
      state.progress = 0
    }
  }
}

/// The parent of downloads: ids in its state, child systems alongside.
enum Downloads {
  struct State: Sendable, Equatable {
    var urls: TrackedDictionary<Int, String> = [:]
    var finished: [Int] = []
  }

  enum Event: Sendable, Equatable {
    case add(Int, String)
    case remove(Int)
    case download(Int, Download.Event)
    case finished(Int)
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .add(let id, let url): state.urls[id] = url
    case .remove(let id): state.urls[id] = nil
    case .download: break
    case .finished(let id): state.finished.append(id)
    }
  }

  static func feedback(
    _ children: ChildSystems<Int, Download.State, Download.Event>, environment: SystemEnvironment,
    made: Log<Int>? = nil
  ) -> Feedback<State, Event> {
    .childSystems(
      children, for: \.urls, name: "downloads",
      make: { id, _ in
        made?.append(id)
        return System(initial: Download.State(), reduce: Download.reduce, environment: environment)
      },
      route: { if case .download(let id, let event) = $0 { (id, event) } else { nil } },
      outcome: { id, state in state.done ? .finished(id) : nil })
  }
}

@Suite(.runsLeftoverJobs) struct ChildSystemsTests {
  struct Probe {
    let harness = Harness()
    let children = ChildSystems<Int, Download.State, Download.Event>()
    let made = Log<Int>()
    let activity = ActivityLog<Downloads.State, Downloads.Event>()
    let system: System<Downloads.State, Downloads.Event>

    init() {
      system = System(
        initial: Downloads.State(), reduce: Downloads.reduce,
        feedbacks: [Downloads.feedback(children, environment: harness.environment, made: made)],
        environment: harness.environment, monitor: activity.monitor)
    }

    func send(_ events: Downloads.Event...) {
      for event in events { system.send(event) }
      harness.settle()
    }
  }

  @Test("G6 new ids start a child system, removed ids stop it, kept ids go on untouched")
  func test_G6_childLifetimesFollowTheState() throws {
    let probe = Probe()
    probe.send(.add(1, "a"), .add(2, "b"))
    #expect(Set(probe.children.ids) == [1, 2])
    let first = try #require(probe.children[1])
    probe.send(.add(3, "c"), .add(1, "a"))
    #expect(probe.children[1] === first)
    #expect(probe.made.entries == [1, 2, 3])
    probe.send(.remove(1))
    #expect(first.isStopped)
    #expect(Set(probe.children.ids) == [2, 3])
  }

  @Test("events are routed down to the child they name; its state is readable; outcomes come up")
  func routedDownOutcomesUp() {
    let probe = Probe()
    probe.send(.add(1, "a"), .add(2, "b"))
    probe.send(.download(1, .tick), .download(1, .tick), .download(2, .tick))
    #expect(probe.children.state(of: 1)?.progress == 2)
    #expect(probe.children.state(of: 2)?.progress == 1)
    #expect(probe.system.state.finished == [])
    probe.send(.download(1, .pause), .download(1, .tick), .download(1, .resume), .download(1, .tick))
    #expect(probe.children.state(of: 1)?.progress == 3)
    #expect(probe.system.state.finished == [1])
  }

  @Test("an event for a child id that does not exist is reported to the monitor as noSuchChild")
  func missingChildReported() {
    let probe = Probe()
    probe.send(.add(1, "a"), .download(7, .tick))
    let discarded = probe.activity.discarded
    #expect(discarded.map(\.0) == [.download(7, .tick)])
    guard let why = discarded.first?.1.missingChild else {
      Issue.record("expected noSuchChild, got \(discarded)")
      return
    }
    #expect(why.contains("no child system 7"))
    #expect(probe.children.state(of: 1)?.progress == 0)
  }

  @Test("G4 the outcomes of a removed child, not yet reduced, are dropped")
  func test_G4_removedChildOutcomesDropped() {
    let probe = Probe()
    probe.send(.add(1, "a"))
    for _ in 0..<3 { probe.system.send(.download(1, .tick)) }
    // The child is done, its outcome not yet delivered: remove it first.
    probe.send(.remove(1))
    #expect(probe.system.state.finished == [])
    #expect(!probe.activity.reducedEvents.contains(.finished(1)))
  }

  @Test("G9 stopping the parent stops every child")
  func test_G9_stopStopsChildren() throws {
    let probe = Probe()
    probe.send(.add(1, "a"), .add(2, "b"))
    let children = [try #require(probe.children[1]), try #require(probe.children[2])]
    probe.system.stop()
    probe.harness.settle()
    #expect(children.allSatisfy { $0.isStopped })
    #expect(probe.children.count == 0)
    #expect(probe.system.runningTaskCount == 0)
  }
}
