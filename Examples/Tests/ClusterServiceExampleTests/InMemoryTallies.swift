import ClusterServiceExample
import FeedbackLoopDurable
import Synchronization

/// A directory for the routes' tests: the tallies it owns are durable
/// systems over an in-memory journal, with the real reducer; the others
/// are owned by the node at `elsewhere`, or by no node.
final class InMemoryTallies: TallyDirectory {
  let nodeID = "node-test"
  private let host: DurableHost<Tally, TallyEvent>
  private let owners: @Sendable (String) -> TallyLookup?
  /// The events sent through this node, in order.
  let sent = Mutex<[(TallyEvent, String)]>([])

  /// `owners` says where an id lives: `nil` for this node.
  init(owners: @escaping @Sendable (String) -> TallyLookup? = { _ in nil }) {
    let writer = JournalWriter(journal: InMemoryJournal())
    host = DurableHost { id in
      try await DurableSystem.restore(id: id, writer: writer, initial: Tally(), reduce: Tally.reduce)
    }
    self.owners = owners
  }

  func send(_ event: TallyEvent, to id: String) async throws {
    sent.withLock { $0.append((event, id)) }
    // The cluster's send returns once the event is in the inbox; here, once
    // it is committed, so that a read after it sees it.
    try await host.sendDurably(event, to: id)
  }

  func lookUp(_ id: String) async throws -> TallyLookup {
    if let elsewhere = owners(id) { return elsewhere }
    return .here(try await host.system(id).state)
  }

  func health() async -> NodeHealth {
    NodeHealth(node: nodeID, ownedShards: [0, 1], loadedSystems: host.loadedCount)
  }
}

/// Records the reads forwarded, and answers each with `answer`.
final class RecordingForwarding: TallyForwarding {
  struct Forwarded: Equatable {
    var id: String
    var baseURL: String
    var forwardedBy: String
  }

  let forwarded = Mutex<[Forwarded]>([])
  let answer: ForwardedAnswer

  init(answer: ForwardedAnswer) { self.answer = answer }

  func tally(_ id: String, from baseURL: String, forwardedBy nodeID: String) async throws -> ForwardedAnswer {
    forwarded.withLock { $0.append(Forwarded(id: id, baseURL: baseURL, forwardedBy: nodeID)) }
    return answer
  }
}
