import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// The durable ledger's queue (the reduced events not yet written, with at
/// most the latest snapshot, their sequences worked out from the count)
/// under attack: every snapshot policy, appends held while events and
/// snapshots pile up, faults in the middle, systems stopped or released
/// with events queued, counted sends, many systems on one writer. Each
/// checks the journal afterwards: sequences contiguous without duplicates,
/// each stored snapshot the fold of the events through its sequence, a
/// restore the fold of the stored events, every acknowledged event stored.
@Suite("Hostile ledger queue", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct HostileQueueTests {
  typealias State = Account.State
  typealias Event = Account.Event

  /// A snapshot policy, and whether a snapshot may be stored at a state and
  /// its sequence.
  struct Policy: Sendable, CustomTestStringConvertible {
    var name: String
    var policy: SnapshotPolicy<State>
    var allows: @Sendable (State, UInt64) -> Bool

    var testDescription: String { name }

    static func every(_ count: UInt64) -> Policy {
      Policy(name: "every(\(count))", policy: .every(count)) { _, sequence in sequence % count == 0 }
    }
    static let never = Policy(name: "never", policy: .never) { _, _ in false }
    /// True on a few states, bunched and far apart.
    static let when: Policy = {
      let rule: @Sendable (State, UInt64) -> Bool = { state, sequence in
        sequence == 2 || (state.deposits.last.map { $0 % 10 == 3 || $0 % 10 == 4 } ?? false)
      }
      return Policy(name: "when", policy: .when(rule), allows: rule)
    }()

    static let all: [Policy] = [.every(1), .every(2), .every(3), .every(7), .when, .never]
  }

  struct Harness {
    let journal = ScriptedJournal()
    let writer: JournalWriter
    let executor = ManualTaskExecutor()
    let logs = LogRecorder()

    init(queue: JournalWriter.QueuePolicy = .unbounded) { writer = JournalWriter(journal: journal, queue: queue) }

    func restore(
      _ id: String = "account", policy: Policy, codec: any DurableCodec = JSONDurableCodec(),
      feedbacks: [Feedback<State, Event>] = [], monitor: SystemMonitor<State, Event>? = nil
    ) async throws -> DurableSystem<State, Event> {
      try await DurableSystem.restore(
        id: id, writer: writer, initial: State(), reduce: Account.reduce, feedbacks: feedbacks,
        snapshots: policy.policy, codec: codec,
        environment: SystemEnvironment(effectExecutor: executor, logger: logs.logger), monitor: monitor)
    }

    /// Checks what the journal holds for `id`, and returns its events.
    @discardableResult
    func check(
      _ id: String = "account", policy: Policy, sourceLocation: SourceLocation = #_sourceLocation
    ) async throws -> [Event] {
      let codec = JSONDurableCodec()
      let records = try await journal.base.events(of: id, after: 0, limit: .max)
      #expect(
        records.map(\.sequence) == (0..<records.count).map { UInt64($0 + 1) },
        "stored sequences are not 1...n", sourceLocation: sourceLocation)
      let events = try records.map { try codec.decode(DurableEnvelope<Event>.self, from: $0.payload).value }
      func fold(through sequence: UInt64) -> State { Account.fold(Array(events.prefix(Int(sequence)))) }
      // The appended batches, in order, make the stored events, each once.
      var next: UInt64 = 0
      for call in journal.calls {
        guard let results = call.results else { continue }
        for (batch, result) in zip(call.batches, results) where batch.systemID == id {
          guard case .appended(let through) = result else { continue }
          #expect(batch.expectedSequence == next, "a gap or a duplicate", sourceLocation: sourceLocation)
          #expect(through == batch.lastSequence, sourceLocation: sourceLocation)
          #expect(
            batch.events == records.dropFirst(Int(batch.expectedSequence)).prefix(batch.events.count).map(\.payload),
            "an appended batch is not what the journal holds", sourceLocation: sourceLocation)
          if let snapshot = batch.snapshot {
            let state = try codec.decode(DurableEnvelope<State>.self, from: snapshot).value
            #expect(
              state == fold(through: through), "the snapshot at \(through) is not the fold through it",
              sourceLocation: sourceLocation)
            #expect(
              policy.allows(state, through), "a snapshot at \(through) that the policy did not ask for",
              sourceLocation: sourceLocation)
          }
          next = through
        }
      }
      #expect(
        next == UInt64(records.count), "stored events that no answered append wrote", sourceLocation: sourceLocation)
      if let snapshot = try await journal.base.latestSnapshot(of: id) {
        let state = try codec.decode(DurableEnvelope<State>.self, from: snapshot.payload).value
        #expect(state == fold(through: snapshot.sequence), sourceLocation: sourceLocation)
      }
      let restored = try await restore(id, policy: policy)
      #expect(restored.state == Account.fold(events), "a restore is not the fold", sourceLocation: sourceLocation)
      #expect(restored.committedSequence == UInt64(events.count), sourceLocation: sourceLocation)
      restored.stop()
      return events
    }
  }

  @Test(
    "G16 rounds of events and snapshots queued behind held appends: contiguous sequences, each snapshot the fold through its own, a restore the fold",
    arguments: Policy.all)
  func heldRounds(policy: Policy) async throws {
    let harness = Harness()
    let count = ReductionCount()
    let account = try await harness.restore(policy: policy, monitor: count.monitor)
    harness.journal.hold(1, 2, 3, 4)
    account.send(.deposit(0))
    await harness.journal.waitForCalls(1)
    var durable: [Task<Int, any Error>] = []
    var sent = 1
    for round in 1...3 {
      for index in 0..<25 {
        let amount = round * 100 + index
        if index % 5 == 0 {
          durable.append(
            Task {
              try await account.sendDurably(.deposit(amount))
              return amount
            })
        } else {
          account.send(.deposit(amount))
        }
        sent += 1
      }
      await count.wait(for: sent)
      harness.journal.open(round)
      await harness.journal.waitForCalls(round + 1)
    }
    harness.journal.open(4)
    var acknowledged: [Int] = []
    for task in durable { acknowledged.append(try await task.value) }
    try await account.waitForCommit()
    #expect(account.committedSequence == UInt64(sent))
    #expect(harness.writer.queuedEventCount == 0)
    let events = try await harness.check(policy: policy)
    #expect(events.count == sent)
    #expect(Account.fold(events) == account.state)
    for amount in acknowledged { #expect(events.contains(.deposit(amount)), "acknowledged, not stored: \(amount)") }
    account.stop()

    // Restored (from its snapshot, if any), it goes on numbering and snapshotting from there.
    let restored = try await harness.restore(policy: policy)
    let next = harness.journal.calls.count + 1
    harness.journal.hold(next)
    restored.send(.deposit(1))
    await harness.journal.waitForCalls(next)
    for amount in 2...15 { restored.send(.deposit(amount)) }
    harness.journal.open(next)
    try await restored.waitForCommit()
    #expect(restored.committedSequence == UInt64(sent + 15))
    try await harness.check(policy: policy)
    restored.stop()
  }

  @Test(
    "G16 counted sends from many tasks while the append is held: each returns only once its event is stored",
    arguments: [Policy.every(1), .every(4), .when, .never])
  func countedSendsWhileHeld(policy: Policy) async throws {
    let harness = Harness()
    let count = ReductionCount()
    let account = try await harness.restore(policy: policy, monitor: count.monitor)
    harness.journal.hold(1, 2)
    account.send(.deposit(0))
    await harness.journal.waitForCalls(1)
    let journal = harness.journal
    let callers = (1...40).map { amount in
      Task {
        try await account.sendDurably(.deposit(amount))
        // Acknowledged: stored, with every event reduced before it.
        let stored = try await journal.base.events(of: "account", after: 0, limit: .max)
        let events = try stored.map {
          try JSONDurableCodec().decode(DurableEnvelope<Event>.self, from: $0.payload).value
        }
        return events.contains(.deposit(amount))
      }
    }
    let committers = (0..<5).map { _ in Task { try await account.waitForCommit() } }
    await count.wait(for: 41)
    let all = Task { try await account.waitForCommit() }
    harness.journal.open(1)
    await harness.journal.waitForCalls(2)
    harness.journal.open(2)
    for caller in callers { #expect(try await caller.value, "acknowledged before it was stored") }
    for committer in committers { try await committer.value }
    try await all.value
    #expect(account.committedSequence == 41)
    #expect(harness.writer.queuedEventCount == 0)
    try await harness.check(policy: policy)
    account.stop()
  }

  /// Where a fault strikes a queue of 21 events (0, then 1...20 behind the
  /// held append).
  enum Strike: String, CaseIterable, Sendable, CustomTestStringConvertible {
    /// The first append throws.
    case firstAppendThrows
    /// The append of the take that ends at the latest snapshot throws.
    case snapshotTakeThrows
    /// The append of the events after the latest snapshot throws.
    case restThrows
    /// The journal refuses the take that ends at the latest snapshot.
    case snapshotTakeRefused
    /// The journal refuses the events after it.
    case restRefused
    /// An event in the middle of the take does not encode.
    case eventEncoding
    /// The snapshot does not encode.
    case snapshotEncoding
    /// The first event after the snapshot does not encode.
    case restEncoding

    var testDescription: String { rawValue }
  }

  @Test(
    "G16 G17 a fault in the middle of a queue with snapshots: every acknowledged event is stored, the rest fail, nothing stays queued, a restore is the fold",
    arguments: Strike.allCases)
  func faultInTheMiddle(strike: Strike) async throws {
    let harness = Harness()
    let count = ReductionCount()
    // Snapshots at 4, 8, ..., 20; the take after the first append ends at 20, and 21 follows it.
    let policy = Policy.every(4)
    let codec = RefusingCodec { value in
      let text = String(describing: value)
      switch strike {
      case .eventEncoding: return (value as? DurableEnvelope<Event>)?.value == .deposit(9)
      case .restEncoding: return (value as? DurableEnvelope<Event>)?.value == .deposit(20)
      case .snapshotEncoding: return text.hasPrefix("SnapshotEnvelope")
      default: return false
      }
    }
    let account = try await harness.restore(policy: policy, codec: codec, monitor: count.monitor)
    switch strike {
    case .firstAppendThrows: harness.journal.fault(.throwing, at: 1)
    case .snapshotTakeThrows: harness.journal.fault(.throwing, at: 2)
    case .restThrows: harness.journal.fault(.throwing, at: 3)
    case .snapshotTakeRefused: harness.journal.fault(.refusing, at: 2)
    case .restRefused: harness.journal.fault(.refusing, at: 3)
    default: break
    }
    harness.journal.hold(1)
    let first = Task { try await account.sendDurably(.deposit(0)) }
    await harness.journal.waitForCalls(1)
    // One caller at a time, each after the one before was reduced: deposit(n)
    // is sequence n + 1, which the faults below count on.
    var callers: [Task<Int?, any Error>] = []
    for amount in 1...20 {
      callers.append(
        Task { () -> Int? in
          do {
            try await account.sendDurably(.deposit(amount))
            return amount
          } catch is DurableSystemError {
            return nil
          }
        })
      await count.wait(for: amount + 1)
    }
    harness.journal.open(1)
    var acknowledged: [Int] = []
    if (try? await first.value) != nil { acknowledged.append(0) }
    for caller in callers { if let amount = try await caller.value { acknowledged.append(amount) } }
    await #expect(throws: DurableSystemError.self) { try await account.waitForCommit() }
    #expect(account.failure != nil)
    #expect(account.isStopped)
    #expect(harness.writer.queuedEventCount == 0)
    let events = try await harness.check(policy: policy)
    for amount in acknowledged { #expect(events.contains(.deposit(amount)), "acknowledged, not stored: \(amount)") }
    let expected: [Event] =
      switch strike {
      case .firstAppendThrows: []
      case .snapshotTakeThrows, .snapshotTakeRefused, .snapshotEncoding, .eventEncoding: [.deposit(0)]
      case .restThrows, .restRefused, .restEncoding: (0...19).map { .deposit($0) }
      }
    // deposit(20) is sequence 21, the one after the snapshot at 20.
    #expect(events == expected)
    if case .encodingFailed(_, let sequence, _) = account.failure {
      let named: UInt64 =
        switch strike {
        case .eventEncoding: 10
        case .restEncoding: 21
        default: 20
        }
      #expect(sequence == named)
    }
  }

  @Test(
    "G16 a system stopped with events and snapshots queued: they are all written, snapshots the fold",
    arguments: Policy.all)
  func stoppedWhileQueued(policy: Policy) async throws {
    let harness = Harness()
    let account = try await harness.restore(policy: policy)
    harness.journal.hold(1)
    account.send(.deposit(0))
    await harness.journal.waitForCalls(1)
    for amount in 1...30 { account.send(.deposit(amount)) }
    account.stop()
    account.send(.deposit(99))  // refused: stopped
    await #expect(throws: DurableSystemError.self) { try await account.sendDurably(.deposit(98)) }
    harness.journal.open(1)
    try await account.waitForCommit()
    #expect(account.committedSequence == 31)
    #expect(harness.writer.queuedEventCount == 0)
    let events = try await harness.check(policy: policy)
    #expect(events == (0...30).map { .deposit($0) })
  }

  @Test(
    "G9 G16 a system released with events and snapshots queued: it goes, and its events are all written",
    arguments: Policy.all)
  func releasedWhileQueued(policy: Policy) async throws {
    let harness = Harness()
    var account: DurableSystem<State, Event>? = try await harness.restore(policy: policy)
    harness.journal.hold(1)
    account?.send(.deposit(0))
    await harness.journal.waitForCalls(1)
    for amount in 1...30 { account?.send(.deposit(amount)) }
    weak let system = account
    account = nil
    #expect(system == nil)
    harness.journal.open(1)
    // The writer makes at most two more appends: to the latest snapshot, and after it.
    await harness.journal.waitForAnswers(2)
    var stored = try await harness.journal.base.events(of: "account", after: 0, limit: .max).count
    if stored < 31 {
      await harness.journal.waitForAnswers(3)
      stored = try await harness.journal.base.events(of: "account", after: 0, limit: .max).count
    }
    #expect(stored == 31)
    #expect(harness.writer.queuedEventCount == 0)
    let events = try await harness.check(policy: policy)
    #expect(events == (0...30).map { .deposit($0) })
  }

  @Test(
    "G16 two threads send while the writer takes, no append held: every event stored once, in the order reduced",
    arguments: Policy.all)
  func sendsRaceWithTakes(policy: Policy) async throws {
    let harness = Harness()
    let reduced = Locked<[Event]>([])
    let account = try await harness.restore(
      policy: policy,
      monitor: SystemMonitor { activity in
        if case .reduced(let event, _, _, _) = activity { reduced.withLock { $0.append(event) } }
      })
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
      for amount in 0..<1_500 { account.send(.deposit(thread * 10_000 + amount)) }
    }
    try await account.waitForCommit()
    #expect(account.committedSequence == 3_000)
    #expect(harness.writer.queuedEventCount == 0)
    let events = try await harness.check(policy: policy)
    #expect(events == reduced.withLock { $0 })
    account.stop()
  }

  @Test("G14 G16 a bounded writer queue refuses sends while the append is held; what it took is stored, contiguous")
  func boundedQueueWhileHeld() async throws {
    let harness = Harness(queue: .refuseNewEvents(limit: 10))
    let account = try await harness.restore(policy: .every(3))
    harness.journal.hold(1)
    account.send(.deposit(0))
    await harness.journal.waitForCalls(1)
    // The append holds 0; 1...10 fill the queue; the rest are refused before they are reduced.
    for amount in 1...30 { account.send(.deposit(amount)) }
    let error = await #expect(throws: DurableSystemError.self) { try await account.sendDurably(.deposit(99)) }
    guard case .writerQueueFull = error else {
      Issue.record("expected writerQueueFull, got \(String(describing: error))")
      return
    }
    #expect(account.state.deposits == Array(0...10))
    harness.journal.open(1)
    try await account.waitForCommit()
    #expect(harness.writer.queuedEventCount == 0)
    try await account.sendDurably(.deposit(11))  // room again
    let events = try await harness.check(policy: .every(3))
    #expect(events == (0...11).map { .deposit($0) })
    #expect(Account.fold(events) == account.state)
    account.stop()
  }

  /// How a user's monitor attacks its durable system from inside the
  /// ledger's `.reduced` report (which the core now borrows).
  enum MonitorAttack: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case stops, releases, sends
    var testDescription: String { rawValue }
  }

  @Test(
    "G9 G16 a user monitor stops, releases or sends to its durable system from the .reduced report: what was reduced is stored, nothing after",
    arguments: MonitorAttack.allCases)
  func userMonitorAttacksFromTheReport(attack: MonitorAttack) async throws {
    let harness = Harness()
    let box = Locked<DurableSystem<State, Event>?>(nil)
    let input = Input<Event>()
    let seen = Locked<[Event]>([])
    weak var released: DurableSystem<State, Event>?
    do {
      let account = try await harness.restore(
        policy: .every(2), feedbacks: [.input(input)],
        monitor: SystemMonitor { activity in
          guard case .reduced(let event, _, _, _) = activity else { return }
          seen.withLock { $0.append(event) }
          guard event == .deposit(2) else { return }
          switch attack {
          case .stops:
            box.withLock { $0 }?.stop()
          case .releases:
            let taken = box.withLock { box in
              defer { box = nil }
              return box
            }
            _ = consume taken  // DurableSystem.deinit, inside the report
          case .sends:
            box.withLock { $0 }?.send(.deposit(20))
          }
          seen.withLock { $0.append(.paidOut(-1)) }  // the report went on
        })
      box.withLock { $0 = account }
      released = account
    }
    harness.journal.hold(1)
    input.send(.deposit(1))
    await harness.journal.waitForCalls(1)
    input.send(.deposit(2))
    input.send(.deposit(3))
    harness.journal.open(1)
    let expected: [Event] =
      attack == .sends ? [.deposit(1), .deposit(2), .deposit(20), .deposit(3)] : [.deposit(1), .deposit(2)]
    if let account = box.withLock({ $0 }) {
      try await account.waitForCommit()
      account.stop()
    } else {
      #expect(released == nil)
      await harness.journal.waitForAnswers(2)
    }
    #expect(seen.withLock { $0 }.filter { $0 != .paidOut(-1) } == expected)
    #expect(seen.withLock { $0 }.contains(.paidOut(-1)))
    #expect(try await harness.check(policy: .every(2)) == expected)
    box.withLock { $0 = nil }
  }

  @Test("G16 G17 six systems with six policies on one writer, their events interleaved behind a held append")
  func manySystemsOneWriter() async throws {
    let harness = Harness()
    let count = ReductionCount()
    let blocker = try await harness.restore("blocker", policy: .never)
    var systems: [(id: String, policy: Policy, system: DurableSystem<State, Event>)] = []
    for (index, policy) in Policy.all.enumerated() {
      let id = "system-\(index)"
      systems.append((id, policy, try await harness.restore(id, policy: policy, monitor: count.monitor)))
    }
    harness.journal.hold(1, 2)
    blocker.send(.deposit(0))
    await harness.journal.waitForCalls(1)
    var callers: [Task<(String, Int), any Error>] = []
    for amount in 0..<40 {
      for (offset, entry) in systems.enumerated() {
        let value = amount * 10 + offset
        if amount % 7 == 0 {
          let system = entry.system
          let id = entry.id
          callers.append(
            Task {
              try await system.sendDurably(.deposit(value))
              return (id, value)
            })
        } else {
          entry.system.send(.deposit(value))
        }
      }
    }
    await count.wait(for: 40 * systems.count)
    harness.journal.open(1)
    await harness.journal.waitForCalls(2)
    harness.journal.open(2)
    var acknowledged: [(String, Int)] = []
    for caller in callers { acknowledged.append(try await caller.value) }
    for entry in systems {
      try await entry.system.waitForCommit()
      #expect(entry.system.committedSequence == 40)
      let events = try await harness.check(entry.id, policy: entry.policy)
      #expect(events.count == 40)
      #expect(Account.fold(events) == entry.system.state)
      for (id, value) in acknowledged where id == entry.id {
        #expect(events.contains(.deposit(value)))
      }
      entry.system.stop()
    }
    #expect(harness.writer.queuedEventCount == 0)
    blocker.stop()
  }
}
