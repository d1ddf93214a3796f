import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopDurableUI
import FeedbackLoopTesting
import FeedbackLoopUI
import Foundation
import Testing

/// An app's downloads screen: opening a file fetches it (a request), and
/// reminds the user 30 seconds after it was opened (a timer whose deadline
/// is in the state, on the app's clock).
enum DownloadsScreen {
  struct State: Codable, Sendable, Equatable {
    var fetching: String?
    var fetched: [String] = []
    var remindAt: Duration?
    var reminders = 0
  }

  enum Event: Codable, Sendable, Equatable {
    case open(String, now: Duration)
    case fetched(String)
    case remind
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .open(let file, let now):
      state.fetching = file
      state.remindAt = now + .seconds(30)
    case .fetched(let file):
      state.fetching = nil
      state.fetched.append(file)
    case .remind:
      state.remindAt = nil
      state.reminders += 1
    }
  }

  /// The request: a fetch that takes 10 seconds of the clock; each call is
  /// recorded in `requests`.
  static func fetches(clock: TestClock, requests: Locked<[String]>) -> Feedback<State, Event> {
    .query(\.fetching) { file in
      .task {
        requests.withLock { $0.append(file) }
        try await clock.sleep(for: .seconds(10))
        return .fetched(file)
      }
    }
  }

  /// The timer: it waits until the deadline kept in the state, so that a
  /// relaunched app reminds at the original moment, not 30 seconds later.
  static func reminders(clock: TestClock) -> Feedback<State, Event> {
    .query(\.remindAt) { deadline in
      .task {
        try await clock.sleep(until: TestClock.Instant(offset: deadline))
        return .remind
      }
    }
  }
}

@MainActor
@Suite("An app over a durable system", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct AppRelaunchTests {
  /// One launch of the app: its durable system, restored from the journal,
  /// in a store.
  @MainActor
  struct Launch {
    let durable: DurableSystem<DownloadsScreen.State, DownloadsScreen.Event>
    let store: Store<DownloadsScreen.State, DownloadsScreen.Event>

    init(journal: some Journal, clock: TestClock, executor: ManualTaskExecutor, requests: Locked<[String]>)
      async throws
    {
      durable = try await DurableSystem.restore(
        id: "downloads", writer: JournalWriter(journal: journal), initial: DownloadsScreen.State(),
        reduce: DownloadsScreen.reduce,
        feedbacks: [
          DownloadsScreen.fetches(clock: clock, requests: requests), DownloadsScreen.reminders(clock: clock),
        ],
        isolation: .mainActor,
        environment: SystemEnvironment(clock: clock, effectExecutor: executor, logger: LogRecorder().logger))
      store = Store(durable)
    }

    /// Lets the effects whose state is stored run, and takes their events.
    func settle(_ executor: ManualTaskExecutor) async throws {
      for _ in 0..<3 {
        try await durable.waitForCommit()
        executor.runUntilIdle()
        store.processQueuedEvents()
      }
    }
  }

  @Test("G16 an app killed and relaunched shows the screen it had, with its request and its timer resumed")
  func relaunchAfterAKill() async throws {
    let journal = HeldJournal()
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let requests = Locked<[String]>([])

    var first: Launch? = try await Launch(
      journal: journal, clock: clock, executor: executor, requests: requests)
    first?.store.send(.open("report.pdf", now: clock.now.offset))
    try await first?.settle(executor)
    #expect(requests.withLock { $0 } == ["report.pdf"])  // the request is in flight
    clock.advance(by: .seconds(5))
    let screen = try #require(first?.store.state)
    #expect(screen == DownloadsScreen.State(fetching: "report.pdf", remindAt: .seconds(30)))

    // The kill: the disk stops taking writes, and the process is gone with
    // whatever it had not stored.
    journal.hold()
    first?.store.send(.open("lost.pdf", now: clock.now.offset))
    first = nil

    let second = try await Launch(journal: journal.base, clock: clock, executor: executor, requests: requests)
    #expect(second.store.state == screen)
    try await second.settle(executor)
    #expect(requests.withLock { $0 } == ["report.pdf", "report.pdf"])  // the request, resumed

    clock.advance(by: .seconds(10))
    try await second.settle(executor)
    #expect(second.store.state.fetched == ["report.pdf"])
    #expect(second.store.fetching == nil)

    // 29 seconds after the file was opened: no reminder yet; at 30, one.
    clock.advance(by: .seconds(14))
    try await second.settle(executor)
    #expect(second.store.reminders == 0)
    clock.advance(by: .seconds(1))
    try await second.settle(executor)
    #expect(second.store.reminders == 1)
    #expect(second.store.remindAt == nil)
    second.store.stop()
    journal.release()
  }
}
