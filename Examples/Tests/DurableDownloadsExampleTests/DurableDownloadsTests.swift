import DurableDownloadsExample
import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Synchronization
import Testing

/// The download manager restored after a crash, in one process: each
/// `restore` stands for a new process over the same journal, while the
/// journal, the clock and the server's table stand for the world, which
/// outlives processes. The test clock drives every wait.
@Suite("Durable downloads", .timeLimit(.minutes(1)))
struct DurableDownloadsTests {
  /// What the server reported, in order.
  final class Reports: Sendable {
    private let lines = Mutex<[String]>([])

    func append(_ line: String) { lines.withLock { $0.append(line) } }
    var all: [String] { lines.withLock { $0 } }
  }

  /// The world the processes share.
  struct World {
    let journal = CrashableJournal()
    let executor = ManualTaskExecutor()
    let testClock: TestClock
    let wall: WallClock
    let served = ServedRequests()
    let reports = Reports()

    init() {
      testClock = TestClock(executor: executor)
      wall = WallClock(following: testClock)
    }

    /// A process: a new writer and a new system, restored from the journal.
    func restore(dropping: DownloadServer.Dropping) async throws -> DurableSystem<
      DurableDownloads.State, DurableDownloads.Event
    > {
      let server = DownloadServer(
        latency: .milliseconds(500), responseTime: .milliseconds(500), clock: wall, dropping: dropping, served: served
      ) { [reports] line in
        reports.append(line)
      }
      return try await DurableSystem.restore(
        id: DurableDownloads.systemID, writer: JournalWriter(journal: journal), initial: DurableDownloads.State(),
        reduce: DurableDownloads.reduce,
        feedbacks: DurableDownloads.feedbacks(server: server, clock: wall, retryAfter: .seconds(1)),
        environment: SystemEnvironment(clock: wall, effectExecutor: executor))
    }

    var reportLines: [String] { reports.all }

    /// Runs the effects, lets the writer store what they sent, and runs the
    /// effects that this unblocked (a state's effects wait for its events
    /// to be stored).
    func settle(_ system: DurableSystem<DurableDownloads.State, DurableDownloads.Event>?) async throws {
      executor.runUntilIdle()
      try await system?.waitForCommit()
      executor.runUntilIdle()
    }

    /// Lets `duration` pass on the clock, then settles.
    func wait(
      _ duration: Duration, _ system: DurableSystem<DurableDownloads.State, DurableDownloads.Event>?
    ) async throws {
      testClock.advance(by: duration)
      try await settle(system)
    }
  }

  @Test("a chunk the server served before a crash is asked for again with the same key, and answered from its table")
  func servedChunkIsNotDownloadedTwice() async throws {
    let world = World()
    var first: DurableSystem<DurableDownloads.State, DurableDownloads.Event>? = try await world.restore(
      dropping: .never)
    try await first?.sendDurably(.added(name: "atlas.iso", chunks: 1))
    world.executor.runUntilIdle()
    // The server serves the chunk at 0.5 s; its answer is on its way when
    // the process dies, at 0.7 s: nothing it sends afterwards is stored.
    world.testClock.advance(by: .milliseconds(500))
    world.executor.runUntilIdle()
    #expect(world.served.all.count == 1)
    world.testClock.advance(by: .milliseconds(200))
    world.journal.crash()
    first = nil
    world.executor.runUntilIdle()

    world.journal.restart()
    let second = try await world.restore(dropping: .never)
    #expect(second.state.files.first?.received == 0)
    world.executor.runUntilIdle()
    #expect(second.state.isFinished)
    let key = try #require(world.served.all.first?.key)
    #expect(key == "downloads/1/fetch/atlas.iso chunk 0 attempt 1")
    #expect(world.served.all.count == 1)
    #expect(
      world.reportLines.last
        == "atlas.iso chunk 0 attempt 1: key \(key) was served before: answered from the table, not downloaded again")
    try await second.waitForCommit()
    second.stop()
  }

  @Test("a dropped chunk is retried at its deadline, kept through a crash, with a backoff that doubles")
  func retryDeadlineSurvivesACrash() async throws {
    let world = World()
    var first: DurableSystem<DurableDownloads.State, DurableDownloads.Event>? = try await world.restore(
      dropping: .attempts(upTo: 2))
    try await first?.sendDurably(.added(name: "notes.pdf", chunks: 1))
    try await world.settle(first)
    try await world.wait(.seconds(1), first)  // attempt 1 drops at 1 s: retry at 2 s
    #expect(first?.state.files.first?.retryAt == WallClock.Instant.unixEpoch.advanced(by: .seconds(2)))
    #expect(world.testClock.nextDeadline == TestClock.Instant(offset: .seconds(2)))
    world.testClock.advance(by: .milliseconds(500))
    first = nil  // the crash, at 1.5 s, with the timer waiting
    world.executor.runUntilIdle()
    #expect(world.testClock.sleeperCount == 0)

    let second = try await world.restore(dropping: .attempts(upTo: 2))
    try await world.settle(second)
    #expect(world.testClock.nextDeadline == TestClock.Instant(offset: .seconds(2)))
    try await world.wait(.milliseconds(500), second)  // 2 s: attempt 2 starts
    #expect(second.state.files.first?.retryAt == nil)
    try await world.wait(.seconds(1), second)  // attempt 2 drops at 3 s: retry 2 s later
    #expect(second.state.files.first?.retryAt == WallClock.Instant.unixEpoch.advanced(by: .seconds(5)))
    try await world.wait(.seconds(2), second)  // 5 s: attempt 3
    try await world.wait(.seconds(1), second)  // served at 6 s
    #expect(second.state.isFinished)
    #expect(second.state.files.first?.failures == 2)
    #expect(world.served.all.map(\.key) == ["downloads/5/fetch/notes.pdf chunk 0 attempt 3"])
    try await second.waitForCommit()
    second.stop()
  }

  @Test("an answer for a chunk the file is no longer at changes nothing")
  func staleAnswersAreIgnored() {
    var state = DurableDownloads.State()
    DurableDownloads.reduce(&state, .added(name: "a", chunks: 2))
    DurableDownloads.reduce(&state, .added(name: "a", chunks: 9))
    DurableDownloads.reduce(&state, .received(name: "a", chunk: 0))
    let afterFirst = state
    DurableDownloads.reduce(&state, .received(name: "a", chunk: 0))
    DurableDownloads.reduce(&state, .failed(name: "a", chunk: 0, retryAt: .unixEpoch))
    DurableDownloads.reduce(&state, .received(name: "b", chunk: 0))
    #expect(state == afterFirst)
    #expect(state.files.map(\.chunks) == [2])
    #expect(state.chunkRequests == [ChunkRequest(file: "a", chunk: 1, attempt: 1)])
  }
}

/// An in-memory journal that a test can crash: from `crash()` until
/// `restart()`, every append fails, as if the process had died before
/// writing, and what was stored stays.
final class CrashableJournal: Journal {
  struct Crashed: Error {}

  private let base = InMemoryJournal()
  private let crashed = Mutex(false)

  func crash() { crashed.withLock { $0 = true } }
  func restart() { crashed.withLock { $0 = false } }

  func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult] {
    if crashed.withLock({ $0 }) { throw Crashed() }
    return try await base.append(batches)
  }

  func load(_ systemID: String) async throws -> JournalHistory? { try await base.load(systemID) }

  func claim(_ systemID: String) async throws -> JournalClaim {
    if crashed.withLock({ $0 }) { throw Crashed() }
    return try await base.claim(systemID)
  }

  func systemIDs(after id: String?, limit: Int) async throws -> [String] {
    try await base.systemIDs(after: id, limit: limit)
  }

  func delete(_ systemID: String) async throws { try await base.delete(systemID) }
}
