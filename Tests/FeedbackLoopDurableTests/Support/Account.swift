import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation

/// The system the durable tests run: an account whose deposits add up, and
/// which asks for a payout (an effect) while one is pending.
enum Account {
  struct State: Codable, Sendable, Equatable {
    var balance = 0
    var deposits: [Int] = []
    var pendingPayout: Int?
    var paidOut: [Int] = []
  }

  enum Event: Codable, Sendable, Equatable {
    case deposit(Int)
    case requestPayout(Int)
    case paidOut(Int)
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .deposit(let amount):
      state.balance += amount
      state.deposits.append(amount)
    case .requestPayout(let amount):
      state.pendingPayout = amount
    case .paidOut(let amount):
      state.balance -= amount
      state.paidOut.append(amount)
      state.pendingPayout = nil
    }
  }

  /// The state the events give, folded by hand.
  static func fold(_ events: [Event], from state: State = State()) -> State {
    var state = state
    for event in events { reduce(&state, event) }
    return state
  }

  /// A payout feedback (a query feedback): the pending payout starts an
  /// effect that records its amount in `payouts`, then sends `.paidOut`.
  static func payouts(started payouts: Locked<[Int]>) -> Feedback<State, Event> {
    .query(\.pendingPayout) { amount in
      .run { send in
        payouts.withLock { $0.append(amount) }
        send(.paidOut(amount))
      }
    }
  }
}

/// What every durable test makes: a journal, a writer, an executor for the
/// effects, and a logger whose records the test can read.
struct DurableHarness {
  let journal = HeldJournal()
  let writer: JournalWriter
  let executor = ManualTaskExecutor()
  let logs = LogRecorder()

  init(queue: JournalWriter.QueuePolicy = .unbounded) {
    writer = JournalWriter(journal: journal, queue: queue)
  }

  var environment: SystemEnvironment {
    SystemEnvironment(effectExecutor: executor, logger: logs.logger)
  }

  func restore(
    _ id: String = "account",
    writer: JournalWriter? = nil,
    feedbacks: [Feedback<Account.State, Account.Event>] = [],
    snapshots: SnapshotPolicy<Account.State> = .never,
    schemaVersion: Int = 1,
    codec: any DurableCodec = JSONDurableCodec(),
    monitor: SystemMonitor<Account.State, Account.Event>? = nil
  ) async throws -> DurableSystem<Account.State, Account.Event> {
    try await DurableSystem.restore(
      id: id, writer: writer ?? self.writer, initial: Account.State(), reduce: Account.reduce,
      feedbacks: feedbacks, snapshots: snapshots, codec: codec, schemaVersion: schemaVersion,
      environment: environment, monitor: monitor)
  }

  /// The events stored for `id`, decoded.
  func storedEvents(_ id: String = "account") async throws -> [Account.Event] {
    let history = try await journal.base.load(id)
    return try (history?.events ?? []).map {
      try JSONDurableCodec().decode(DurableEnvelope<Account.Event>.self, from: $0.payload).value
    }
  }
}
