import Dispatch
import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Synchronization
import Testing

/// The writer's systems taking and encoding their batches on several
/// threads at once (BatchEncoding.map), and a large batch encoded in runs
/// (BatchEncoding.encode), under attack: many systems and callers on one
/// bounded writer, codecs that are slow, throw, or are not deterministic,
/// systems stopped, released or sent to from inside a concurrent take,
/// snapshots cutting large takes, and journals that throw or refuse the
/// large append. Each checks the journal afterwards: nothing acknowledged
/// lost, nothing stored twice or out of order, a failure named by its
/// first sequence, the writer's queue back to 0.
@Suite("Hostile concurrent takes", .runsLeftoverJobs, .timeLimit(.minutes(2)))
struct HostileConcurrentTakeTests {
  typealias State = Account.State
  typealias Event = Account.Event
  typealias Durable = DurableSystem<State, Event>

  struct Refused: Error {}

  /// A codec of one of several kinds, which calls `onEncode` first (from
  /// whichever thread encodes), and throws for what `refuses` picks.
  struct HostileCodec: DurableCodec {
    enum Kind: Sendable, CaseIterable { case json, binary, slow, unstable }
    static let unstableTurns = Atomic<Int>(0)
    var kind: Kind
    var refuses: @Sendable (any Encodable) -> Bool = { _ in false }
    var onEncode: @Sendable (any Encodable) -> Void = { _ in }

    func encode(_ value: some Encodable) throws -> Data {
      onEncode(value)
      if refuses(value) { throw Refused() }
      switch kind {
      case .json:
        return try JSONDurableCodec().encode(value)
      case .binary:
        return try BinaryDurableCodec().encode(value)
      case .slow:
        // Slow without sleeping: the same encoding, many times.
        var data = Data()
        for _ in 0..<16 { data = try JSONDurableCodec().encode(value) }
        return data
      case .unstable:
        // Unstable bytes: a fresh encoder, formatted one way or the other
        // in turns (by a count every thread shares, so which event gets
        // which depends on how the runs interleave), the same values.
        let encoder = JSONEncoder()
        let turn = Self.unstableTurns.add(1, ordering: .relaxed).newValue
        encoder.outputFormatting = turn.isMultiple(of: 2) ? [.prettyPrinted] : [.sortedKeys, .withoutEscapingSlashes]
        return try encoder.encode(value)
      }
    }

    func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
      kind == .binary
        ? try BinaryDurableCodec().decode(type, from: data) : try JSONDurableCodec().decode(type, from: data)
    }
  }

  static func amount(of value: any Encodable) -> Int? {
    guard case .deposit(let amount)? = (value as? DurableEnvelope<Event>)?.value else { return nil }
    return amount
  }

  static func isSnapshot(_ value: any Encodable) -> Bool {
    String(describing: type(of: value)).hasPrefix("SnapshotEnvelope")
  }

  /// The deposits stored for `id`, after checking that their sequences are
  /// 1...n.
  static func stored(
    _ journal: InMemoryJournal, _ id: String, codec: any DurableCodec,
    sourceLocation: SourceLocation = #_sourceLocation
  ) async throws -> [Int] {
    let records = try await journal.events(of: id, after: 0, limit: .max)
    #expect(
      records.map(\.sequence) == (0..<records.count).map { UInt64($0 + 1) }, "\(id): stored sequences are not 1...n",
      sourceLocation: sourceLocation)
    return try records.map {
      guard case .deposit(let amount) = try codec.decode(DurableEnvelope<Event>.self, from: $0.payload).value else {
        Issue.record("\(id): a stored event that is not a deposit", sourceLocation: sourceLocation)
        return -1
      }
      return amount
    }
  }

  // MARK: - Many systems, many callers, a bounded writer

  @Test(
    "G16 60 systems on one bounded writer, callers in many tasks, mixed codecs and snapshots, some failing: every acknowledged event stored once, in order"
  )
  func manySystemsManyCallers() async throws {
    let harness = DurableHarness(queue: .refuseNewEvents(limit: 1_500))
    let tally = ReductionCount(countingDiscards: true)
    let systemCount = 60
    let tasksPerSystem = 4
    let eventsPerTask = 10
    @Sendable func amount(_ system: Int, _ task: Int, _ index: Int) -> Int {
      system * 100_000 + task * 1_000 + index + 1
    }
    // Every fifth system refuses one event, in the middle of its second task's.
    @Sendable func refusedAmount(_ system: Int) -> Int? { system % 5 == 4 ? amount(system, 1, 4) : nil }
    let kinds = HostileCodec.Kind.allCases
    let policies: [SnapshotPolicy<State>] = [.never, .every(7), .every(50)]
    @Sendable func codec(_ system: Int) -> HostileCodec {
      let refused = refusedAmount(system)
      return HostileCodec(kind: kinds[system % kinds.count]) { value in
        refused != nil && Self.amount(of: value) == refused
      }
    }

    let first = try await harness.restore("first")
    var systems: [Durable] = []
    for index in 0..<systemCount {
      systems.append(
        try await harness.restore(
          "s-\(index)", snapshots: policies[index % policies.count], codec: codec(index), monitor: tally.monitor))
    }
    harness.journal.hold()
    first.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)

    // Phase 1: every caller's events pile up behind the held append; the
    // writer's queue refuses some.
    var callers: [Task<(system: Int, acknowledged: Int?), Never>] = []
    for system in 0..<systemCount {
      for task in 0..<tasksPerSystem {
        let durable = systems[system]
        callers.append(
          Task {
            for index in 0..<(eventsPerTask - 1) { durable.send(.deposit(amount(system, task, index))) }
            let last = amount(system, task, eventsPerTask - 1)
            do {
              try await durable.sendDurably(.deposit(last))
              return (system, last)
            } catch {
              return (system, nil)
            }
          })
      }
    }
    await tally.wait(for: systemCount * tasksPerSystem * eventsPerTask)
    #expect(harness.writer.queuedEventCount > 2 * 128, "too few events queued to spread the takes")
    harness.journal.release()
    var acknowledged: [Int: [Int]] = [:]
    for caller in callers {
      let (system, amount) = await caller.value
      if let amount { acknowledged[system, default: []].append(amount) }
    }

    // Phase 2: callers that each wait for their own before sending again,
    // the appends no longer held.
    var later: [Task<(system: Int, acknowledged: [Int]), Never>] = []
    for system in 0..<systemCount where systems[system].failure == nil {
      for task in tasksPerSystem..<(tasksPerSystem + 2) {
        let durable = systems[system]
        later.append(
          Task {
            var done: [Int] = []
            for index in 0..<5 {
              let value = amount(system, task, index)
              do {
                try await durable.sendDurably(.deposit(value))
                done.append(value)
              } catch {
                break
              }
            }
            return (system, done)
          })
      }
    }
    for task in later {
      let (system, amounts) = await task.value
      acknowledged[system, default: []].append(contentsOf: amounts)
    }

    for (index, system) in systems.enumerated() {
      let live = system.state.deposits
      if system.failure == nil { try await system.waitForCommit() }
      let stored = try await Self.stored(harness.journal.base, system.id, codec: codec(index))
      #expect(
        Array(live.prefix(stored.count)) == stored, "\(system.id): stored events are not the reduced ones, in order")
      #expect(Set(stored).count == stored.count, "\(system.id): an event stored twice")
      for value in acknowledged[index] ?? [] {
        #expect(stored.contains(value), "\(system.id): acknowledged deposit(\(value)) not stored")
      }
      if let failure = system.failure {
        guard case .encodingFailed(let id, let sequence, let underlying) = failure else {
          Issue.record("\(system.id): failure \(failure)")
          continue
        }
        let refused = try #require(refusedAmount(index), "\(system.id) failed without a refused event")
        let position = try #require(
          live.firstIndex(of: refused), "\(system.id) failed without reducing the refused event")
        #expect(id == system.id)
        #expect(
          sequence == UInt64(position + 1), "\(system.id): the failure names \(sequence), not the refused event's")
        #expect(underlying is Refused)
        #expect(stored.count <= position, "\(system.id): stored the refused event or after it")
      } else {
        #expect(stored == live, "\(system.id): reduced events not stored")
        if let refused = refusedAmount(index) {
          #expect(!live.contains(refused), "\(system.id): reduced its refused event, and did not fail")
        }
      }
    }
    #expect(harness.writer.queuedEventCount == 0)
    // A restore of each system from what is stored is the fold of it.
    for (index, system) in systems.enumerated() {
      system.stop()
      let stored = try await Self.stored(harness.journal.base, system.id, codec: codec(index))
      let plain = HostileCodec(kind: kinds[index % kinds.count])
      let restored = try await harness.restore(system.id, codec: plain)
      #expect(restored.state.deposits == stored, "\(system.id): a restore is not the stored events")
      restored.stop()
    }
    first.stop()
  }

  // MARK: - Stops, releases and sends from inside a concurrent take

  @Test(
    "a system stopped, one released, one sent to, and one failing, from inside another's concurrent take: what each reduced is stored or it fails alone"
  )
  func actionsDuringConcurrentTakes() async throws {
    let harness = DurableHarness()
    let tally = ReductionCount(countingDiscards: true)
    let acted = Locked(false)
    let victims = Locked<(stop: Durable?, release: Durable?, actor: Durable?)>((nil, nil, nil))
    let extra = 1_000...1_004
    // The actor's codec, encoding its 20th event, stops one system, releases
    // another, and sends to its own system (on the writer's thread).
    let actorCodec = HostileCodec(
      kind: .json,
      onEncode: { value in
        guard Self.amount(of: value) == 20 else { return }
        guard
          acted.withLock({ done in
            defer { done = true }; return !done
          })
        else { return }
        let (stop, release, actor) = victims.withLock { victims in
          defer { victims.release = nil }
          return victims
        }
        stop?.stop(isolation: nil)
        _ = release
        for value in extra { actor?.send(.deposit(value), isolation: nil) }
      })
    let failing = HostileCodec(kind: .binary) { Self.amount(of: $0) == 33 }

    let first = try await harness.restore("first")
    let actor = try await harness.restore("actor", codec: actorCodec, monitor: tally.monitor)
    var fillers: [Durable] = []
    for index in 0..<10 {
      fillers.append(
        try await harness.restore(
          "filler-\(index)", snapshots: index.isMultiple(of: 2) ? .every(9) : .never,
          codec: HostileCodec(kind: index.isMultiple(of: 3) ? .binary : .slow), monitor: tally.monitor))
    }
    let failer = try await harness.restore("failer", codec: failing, monitor: tally.monitor)
    let stopped = try await harness.restore("stopped", monitor: tally.monitor)
    var released: Durable? = try await harness.restore(
      "released", codec: HostileCodec(kind: .slow), monitor: tally.monitor)
    victims.withLock { $0 = (stopped, released, actor) }
    let releasedID = released!.id

    harness.journal.hold()
    first.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)
    var sent = 0
    for value in 1...40 {
      actor.send(.deposit(value))
      for filler in fillers { filler.send(.deposit(value)) }
      failer.send(.deposit(value))
      released!.send(.deposit(value))
      sent += 13
    }
    // The stopped system's caller: its event is reduced before the stop, so
    // it must be stored and acknowledged.
    for value in 1...39 { stopped.send(.deposit(value)) }
    let durableStopped = Task { [stopped] in try await stopped.sendDurably(.deposit(40)) }
    let durableFailer = Task { [failer] in try await failer.sendDurably(.deposit(41)) }
    sent += 41
    await tally.wait(for: sent)
    released = nil
    #expect(harness.writer.queuedEventCount >= 2 * 128)
    harness.journal.release()

    try await actor.waitForCommit()
    for filler in fillers { try await filler.waitForCommit() }
    try await durableStopped.value
    await #expect(throws: DurableSystemError.self) { try await durableFailer.value }
    #expect(acted.withLock { $0 }, "the actor's codec did not act")
    #expect(stopped.isStopped)

    let json = JSONDurableCodec()
    #expect(try await Self.stored(harness.journal.base, "actor", codec: json) == Array(1...40) + Array(extra))
    #expect(actor.state.deposits == Array(1...40) + Array(extra))
    for (index, filler) in fillers.enumerated() {
      let codec = HostileCodec(kind: index.isMultiple(of: 3) ? .binary : .slow)
      #expect(try await Self.stored(harness.journal.base, filler.id, codec: codec) == Array(1...40))
    }
    #expect(try await Self.stored(harness.journal.base, "stopped", codec: json) == Array(1...40))
    // Released during the take: its events, all reduced before, are in the
    // same append (the actor's next one came after it).
    #expect(try await Self.stored(harness.journal.base, releasedID, codec: json) == Array(1...40))
    guard case .encodingFailed(let id, let sequence, _)? = failer.failure else {
      Issue.record("failer: \(String(describing: failer.failure))")
      return
    }
    #expect(id == "failer")
    #expect(sequence == 33)
    #expect(try await Self.stored(harness.journal.base, "failer", codec: HostileCodec(kind: .binary)) == [])
    #expect(harness.writer.queuedEventCount == 0)
    actor.stop()
    for filler in fillers { filler.stop() }
    failer.stop()
    stopped.stop()
    first.stop()
    victims.withLock { $0 = (nil, nil, nil) }
  }

  @Test(
    "8 systems sent to from 8 threads while the writer takes them on several: every reduced event stored once, in order, each snapshot a fold"
  )
  func sendsDuringConcurrentTakes() async throws {
    let harness = DurableHarness()
    let policies: [SnapshotPolicy<State>] = [.every(3), .every(64), .never, .every(1)]
    var systems: [Durable] = []
    for index in 0..<8 {
      systems.append(
        try await harness.restore(
          "t-\(index)", snapshots: policies[index % policies.count],
          codec: HostileCodec(kind: HostileCodec.Kind.allCases[index % 4])))
    }
    let perThread = 600
    // Each thread sends to every system in turn; the threads end in any
    // order, and the last one resumes the test.
    let remaining = Locked((count: 8, waiter: CheckedContinuation<Void, Never>?.none))
    await withCheckedContinuation { (waiter: CheckedContinuation<Void, Never>) in
      remaining.withLock { $0.waiter = waiter }
      for thread in 0..<8 {
        let targets = systems
        Thread {
          for index in 0..<perThread {
            targets[(index + thread) % targets.count].send(.deposit(thread * 10_000 + index), isolation: nil)
          }
          let done = remaining.withLock { state -> CheckedContinuation<Void, Never>? in
            state.count -= 1
            return state.count == 0 ? state.waiter : nil
          }
          done?.resume()
        }.start()
      }
    }
    for (index, system) in systems.enumerated() {
      try await system.waitForCommit()
      let codec = HostileCodec(kind: HostileCodec.Kind.allCases[index % 4])
      let stored = try await Self.stored(harness.journal.base, system.id, codec: codec)
      #expect(stored == system.state.deposits, "\(system.id): stored is not what was reduced, in order")
      #expect(stored.count == perThread, "\(system.id)")
      system.stop()
      let restored = try await harness.restore(system.id, codec: codec)
      #expect(restored.state.deposits == stored, "\(system.id): a restore from the snapshot is not the fold")
      restored.stop()
    }
    #expect(harness.writer.queuedEventCount == 0)
  }

  // MARK: - Snapshots in large batches

  @Test(
    "G16 large takes cut at their latest snapshot, next to systems whose snapshot or a later event does not encode: the first failing sequence named, the rest in order"
  )
  func snapshotsInLargeBatches() async throws {
    let harness = DurableHarness()
    let first = try await harness.restore("first")
    let tally = ReductionCount(countingDiscards: true)
    // a: every(100), 1,050 events: 1...1,000 with the snapshot, then 1,001...1,050.
    let a = try await harness.restore("a", snapshots: .every(100), monitor: tally.monitor)
    // b: every(300), no snapshot encodes: fails at 900 (its take's), not 950.
    let b = try await harness.restore(
      "b", snapshots: .every(300),
      codec: HostileCodec(kind: .json) { Self.isSnapshot($0) || Self.amount(of: $0) == 950 }, monitor: tally.monitor)
    // c: every(300), event 950 does not encode: 1...900 stored, fails at 950.
    let c = try await harness.restore(
      "c", snapshots: .every(300), codec: HostileCodec(kind: .slow) { Self.amount(of: $0) == 950 },
      monitor: tally.monitor)
    // d: every(300), event 500 and every snapshot refused: fails at 500.
    let d = try await harness.restore(
      "d", snapshots: .every(300),
      codec: HostileCodec(kind: .binary) { Self.isSnapshot($0) || Self.amount(of: $0) == 500 }, monitor: tally.monitor)
    // e: every(7), binary: 1,050 is a multiple of 7, one take.
    let e = try await harness.restore(
      "e", snapshots: .every(7), codec: HostileCodec(kind: .binary), monitor: tally.monitor)
    let systems = [a, b, c, d, e]

    harness.journal.hold()
    first.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)
    var durable: [String: Task<Void, any Error>] = [:]
    var sent = 0
    for value in 1...1_050 {
      for system in systems {
        if value == 900 || value == 1_050 {
          durable["\(system.id)-\(value)"] = Task { [system] in try await system.sendDurably(.deposit(value)) }
          sent += 1
          await tally.wait(for: sent)
        } else {
          system.send(.deposit(value))
          sent += 1
        }
      }
    }
    await tally.wait(for: sent)
    harness.journal.release()

    try await a.waitForCommit()
    try await e.waitForCommit()
    try await durable["a-900"]!.value
    try await durable["a-1050"]!.value
    try await durable["c-900"]!.value
    try await durable["e-1050"]!.value
    for key in ["b-900", "b-1050", "c-1050", "d-900", "d-1050"] {
      await #expect(throws: DurableSystemError.self, "\(key)") { try await durable[key]!.value }
    }
    let expected: [(DurableSystem<State, Event>, UInt64?)] = [(a, nil), (b, 900), (c, 950), (d, 500), (e, nil)]
    for (system, sequence) in expected {
      if let sequence {
        guard case .encodingFailed(let id, let named, _)? = system.failure else {
          Issue.record("\(system.id): \(String(describing: system.failure))")
          continue
        }
        #expect(id == system.id)
        #expect(named == sequence, "\(system.id)")
      } else {
        #expect(system.failure == nil, "\(system.id)")
      }
    }
    let json = JSONDurableCodec()
    let binary = BinaryDurableCodec()
    #expect(try await Self.stored(harness.journal.base, "a", codec: json) == Array(1...1_050))
    #expect(try await Self.stored(harness.journal.base, "b", codec: json) == [])
    #expect(try await Self.stored(harness.journal.base, "c", codec: json) == Array(1...900))
    #expect(try await Self.stored(harness.journal.base, "d", codec: binary) == [])
    #expect(try await Self.stored(harness.journal.base, "e", codec: binary) == Array(1...1_050))
    #expect(try await harness.journal.base.latestSnapshot(of: "a")?.sequence == 1_000)
    #expect(try await harness.journal.base.latestSnapshot(of: "c")?.sequence == 900)
    #expect(try await harness.journal.base.latestSnapshot(of: "e")?.sequence == 1_050)
    // a's batches: the take up to its snapshot, then the rest, in order.
    let aBatches = harness.journal.appendCalls.flatMap { $0.filter { $0.systemID == "a" } }
    #expect(aBatches.map(\.expectedSequence) == [0, 1_000])
    #expect(aBatches.map(\.events.count) == [1_000, 50])
    #expect(aBatches.map { $0.snapshot != nil } == [true, false])
    // No append holds two batches of one system.
    for call in harness.journal.appendCalls {
      #expect(Set(call.map(\.systemID)).count == call.count, "an append with two batches of one system")
    }
    #expect(harness.writer.queuedEventCount == 0)
    let restoredA = try await harness.restore("a")
    #expect(restoredA.state.deposits == Array(1...1_050))
    let restoredC = try await harness.restore("c", codec: HostileCodec(kind: .slow))
    #expect(restoredC.state.deposits == Array(1...900))
    restoredA.stop()
    restoredC.stop()
    for system in systems { system.stop() }
    first.stop()
  }

  // MARK: - Failing encodings at the runs' edges

  struct Edge: Sendable, CustomTestStringConvertible {
    var refused: Set<Int>
    var named: Int
    var testDescription: String { "refused \(refused.sorted()), named \(named)" }
  }

  @Test(
    "G16 events that do not encode at the edges of the runs of a 1,000-event take: the first by position named",
    arguments: [
      Edge(refused: [500, 499], named: 499), Edge(refused: [500, 501], named: 500),
      Edge(refused: [1, 1_000], named: 1),
      Edge(refused: [1_000], named: 1_000), Edge(refused: [751, 250, 251], named: 250),
      Edge(refused: [334, 667], named: 334), Edge(refused: [256], named: 256),
    ])
  func runEdges(edge: Edge) async throws {
    let harness = DurableHarness()
    let refused = edge.refused
    let account = try await harness.restore(
      codec: HostileCodec(kind: .binary) { Self.amount(of: $0).map(refused.contains) ?? false })
    harness.journal.hold()
    account.send(.deposit(0))
    await harness.journal.waitForAppendCalls(1)
    for value in 1...1_000 { account.send(.deposit(value)) }
    harness.journal.release()
    await #expect(throws: DurableSystemError.self) { try await account.waitForCommit() }
    guard case .encodingFailed(_, let sequence, let underlying)? = account.failure else {
      Issue.record("failure: \(String(describing: account.failure))")
      return
    }
    #expect(sequence == UInt64(edge.named + 1))
    #expect(underlying is Refused)
    #expect(try await Self.stored(harness.journal.base, "account", codec: BinaryDurableCodec()) == [0])
    #expect(harness.writer.queuedEventCount == 0)
    account.stop()
  }

  // MARK: - The large append throws or is refused

  @Test(
    "G16 the journal throws or refuses the append of many systems' concurrent takes: each fails, none acknowledged, the queue back to 0",
    arguments: [ScriptedJournal.Fault.throwing, .refusing])
  func largeAppendFails(fault: ScriptedJournal.Fault) async throws {
    let journal = ScriptedJournal()
    let writer = JournalWriter(journal: journal, queue: .refuseNewEvents(limit: 5_000))
    let executor = ManualTaskExecutor()
    let logs = LogRecorder()
    let tally = ReductionCount(countingDiscards: true)
    func restore(_ id: String, snapshots: SnapshotPolicy<State> = .never, kind: HostileCodec.Kind = .json)
      async throws -> Durable
    {
      try await DurableSystem.restore(
        id: id, writer: writer, initial: State(), reduce: Account.reduce, snapshots: snapshots,
        codec: HostileCodec(kind: kind), environment: SystemEnvironment(effectExecutor: executor, logger: logs.logger),
        monitor: tally.monitor)
    }
    let first = try await restore("first")
    var systems: [Durable] = []
    for index in 0..<30 {
      systems.append(
        try await restore(
          "s-\(index)", snapshots: index % 3 == 0 ? .every(100) : .never,
          kind: HostileCodec.Kind.allCases[index % 4]))
    }
    journal.hold(1)
    journal.fault(fault, at: 2)
    first.send(.deposit(0))
    await journal.waitForCalls(1)
    var callers: [Task<Void, any Error>] = []
    var sent = 0
    for (index, system) in systems.enumerated() {
      // Every third system: 250 events with snapshots every 100, so its
      // take ends at 200 and 201...250 wait for the next append.
      let count = index % 3 == 0 ? 250 : 20
      for value in 1..<count { system.send(.deposit(value)) }
      callers.append(Task { [system] in try await system.sendDurably(.deposit(count)) })
      sent += count
    }
    await tally.wait(for: sent)
    journal.open(1)
    for caller in callers {
      await #expect(throws: DurableSystemError.self) { try await caller.value }
    }
    try await first.waitForCommit()
    for system in systems {
      await #expect(throws: DurableSystemError.self) { try await system.waitForCommit() }
      switch (fault, system.failure) {
      case (.throwing, .journalFailed(let id, _)?):
        #expect(id == system.id)
      case (.refusing, .refusedByJournal(let conflict)?):
        #expect(conflict.systemID == system.id)
      default:
        Issue.record("\(system.id): \(String(describing: system.failure))")
      }
      #expect(try await journal.base.events(of: system.id, after: 0, limit: .max).isEmpty)
    }
    #expect(journal.calls.count == 2, "a failed system's rest appended after its failure")
    #expect(writer.queuedEventCount == 0)
    for system in systems { system.stop() }
    first.stop()
  }

  // MARK: - Codecs from many threads

  struct Sample: Codable, Sendable, Equatable {
    var name: String
    var values: [String: Int]
    var nested: [[String: Double]]
    var flags: [Bool]
    var optional: Int?
    var zeta: String
    var alpha: [String]
  }

  static func samples(_ count: Int, seed: Int) -> [Sample] {
    (0..<count).map { index in
      let n = seed * 1_000 + index
      var values: [String: Int] = [:]
      for key in 0..<(n % 17) { values["k\((key * 7_919 + n) % 101)-\(key)"] = key * n }
      return Sample(
        name: "sample \(n) \"quoted\" / slash é 🐢 \u{7}",
        values: values,
        nested: (0..<(n % 4)).map { ["x\($0)": Double(n) / 3, "a\($0)": -Double($0) * 1e-7, "m": .pi] },
        flags: (0..<(n % 5)).map { ($0 + n).isMultiple(of: 2) },
        optional: n.isMultiple(of: 3) ? nil : n,
        zeta: String(repeating: "z", count: n % 9),
        alpha: (0..<(n % 6)).map { "\($0)" })
    }
  }

  @Test(
    "the JSON codec, from 8 threads at once, gives a fresh sorted-keys JSONEncoder's bytes; the binary codec its own"
  )
  func codecsFromManyThreads() throws {
    let threads = 8
    let perThread = 400
    // The same values on every thread: the binary codec writes a dictionary
    // in its iteration order, which differs between equal dictionaries.
    let samples = (0..<threads).map { Self.samples(perThread, seed: $0) }
    let expected = try (0..<threads).map { seed in
      try samples[seed].map { sample -> (json: Data, binary: Data) in
        let fresh = JSONEncoder()
        fresh.outputFormatting = .sortedKeys
        let envelope = DurableEnvelope(version: seed, value: sample)
        return (try fresh.encode(envelope), try BinaryDurableCodec().encode(envelope))
      }
    }
    let mismatches = Locked<[String]>([])
    DispatchQueue.concurrentPerform(iterations: threads) { seed in
      let json = JSONDurableCodec()
      let binary = BinaryDurableCodec()
      for (index, sample) in samples[seed].enumerated() {
        let envelope = DurableEnvelope(version: seed, value: sample)
        do {
          let written = try json.encode(envelope)
          let own = try binary.encode(envelope)
          if written != expected[seed][index].json { mismatches.withLock { $0.append("json \(seed)/\(index)") } }
          if own != expected[seed][index].binary { mismatches.withLock { $0.append("binary \(seed)/\(index)") } }
          let decoded = try binary.decode(DurableEnvelope<Sample>.self, from: own).value
          if decoded != sample { mismatches.withLock { $0.append("binary round trip \(seed)/\(index)") } }
        } catch {
          mismatches.withLock { $0.append("\(seed)/\(index) threw \(error)") }
        }
      }
    }
    #expect(mismatches.withLock { $0 } == [])
  }
}
