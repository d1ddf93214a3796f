import FeedbackLoop
import FeedbackLoopDurable
import Foundation
import Logging
import PostgresNIO
import ServiceLifecycle

/// Durable systems of one kind, by id, on a cluster: an event sent to any
/// id from any node reaches the node that owns the id's shard, through an
/// inbox in PostgreSQL, and is reduced once, in the order its sender sent
/// it.
///
/// ``send(_:to:)`` writes the event to the inbox and returns once it is
/// committed: the event is then acknowledged, and will be reduced exactly
/// once by whichever node owns the id, even across a crash or a takeover.
/// The owner (``run()``, woken by the inbox's notifications) gets or
/// restores the system through a `DurableHost`, sends the event durably,
/// and then deletes its row. A node that gives a shard up, or loses it,
/// stops the shard's systems first.
///
/// ```swift
/// let node = try await ClusterNode.join(client: client)
/// let carts = try await ClusterHost<Cart, CartEvent>(
///   node: node, client: client, writer: JournalWriter(journal: journal),
///   initial: Cart(), reduce: Cart.reduce, feedbacks: Cart.feedbacks(api: api))
/// let delivery = Task { await carts.run() }
/// try await carts.send(.add("tea"), to: "cart-42")   // from any node
/// ```
///
/// ## Exactly once, and in order
///
/// The journal's append and the inbox row's delete are two transactions,
/// so a crash between them leaves a row whose event is already stored. The
/// delivery is idempotent where the event is stored: the system's state
/// (``DeliveredState``) keeps the last sequence it reduced of each sender,
/// and an event at or below it is reduced as nothing. A sender numbers its
/// events in increasing order and inserts them one at a time per id, so
/// the owner, reading rows in the order they were inserted, keeps each
/// sender's order. The records of senders that left the cluster go once no
/// row of theirs is left for the system (``Delivery/forgetting``), so a
/// system's state holds about one record per live node, however many node
/// runs sent to it.
///
/// One kind of system per table prefix: give each kind settings of its own.
public final class ClusterHost<State: Codable & Sendable, Event: Codable & Sendable>: Service, Sendable {
  /// The node this host runs on.
  public let node: ClusterNode
  private let client: PostgresClient
  private let inbox: Inbox
  private let systems: DurableHost<DeliveredState<State>, Delivery<Event>>
  /// The node's numbering of its sends (internal: tests read it).
  let sequences = Locked(SenderSequences())
  private let logger: Logger
  private let encoder = JSONEncoder()
  /// Whether ``run()`` listens to the inbox's channel now (for tests, which
  /// send only once a notification can wake the owner).
  let isListening = Locked(false)
  /// Wakes ``run()``'s deliveries while it runs: a shard just claimed may
  /// hold rows already (a dead node's), which should not wait for the next
  /// round's wake.
  private let deliveryWake = Locked<(@Sendable () -> Void)?>(nil)

  /// A host of systems on `node`, stored by `writer`.
  ///
  /// ```swift
  /// let counters = try await ClusterHost<Int, Int>(
  ///   node: node, client: client, writer: writer, initial: 0, reduce: { count, step in count += step })
  /// ```
  ///
  /// - Parameters:
  ///   - node: the node, joined.
  ///   - client: a running client of the cluster's database.
  ///   - writer: the writer of the systems' journal (in the same database,
  ///     or another).
  ///   - initial: the state of a system with nothing stored.
  ///   - reduce: the reducer.
  ///   - feedbacks: the feedbacks, written for the user's own state.
  ///   - snapshots: when to store a snapshot with the events.
  ///   - passivateAfter: how long an idle system stays loaded.
  ///   - logger: where failures to deliver or to listen are logged.
  public init(
    node: ClusterNode,
    client: PostgresClient,
    writer: JournalWriter,
    initial: State,
    reduce: @escaping @Sendable (inout State, Event) -> Void,
    feedbacks: [LiftableFeedback<State, Event>] = [],
    snapshots: SnapshotPolicy<DeliveredState<State>> = .every(100),
    passivateAfter: Duration? = .seconds(300),
    logger: Logger = Logger(label: "FeedbackLoopCluster")
  ) async throws {
    self.node = node
    self.client = client
    self.inbox = Inbox(prefix: node.settings.tablePrefix)
    self.logger = logger
    let lifted = feedbacks.map {
      $0.lifted(state: \DeliveredState<State>.state, event: ToDelivery<Event>(), name: "").feedback
    }
    systems = DurableHost(passivateAfter: passivateAfter) { id in
      try await DurableSystem.restore(
        id: id, writer: writer, initial: DeliveredState(state: initial),
        reduce: { delivered, delivery in delivered.reduce(delivery, with: reduce) },
        feedbacks: lifted, snapshots: snapshots)
    }
    try await inbox.create(on: client, logger: logger)
    node.whenShardsCome { [systems, journal = writer.journal, node, logger, deliveryWake] shards in
      deliveryWake.withLock { $0 }?()
      Task { await Self.wake(shards, of: node, systems: systems, journal: journal, logger: logger) }
    }
    // The shards the node claimed when it joined, before this host was made.
    Task { [systems, journal = writer.journal, node, logger, owned = node.ownedShards] in
      await Self.wake(owned, of: node, systems: systems, journal: journal, logger: logger)
    }
    node.whenShardsGo { [systems, shardMap = node.shardMap] shards in
      let going = Set(shards)
      for id in systems.loadedIDs where going.contains(shardMap.shard(of: id)) {
        guard let system = try? await systems.system(id) else { continue }
        system.stop()
        try? await system.waitForCommit()
      }
    }
  }

  /// Restores the stored systems of `shards`, so that the ones with
  /// effects in flight start them again without waiting for an event (their
  /// restored state reaches their feedbacks first, G1); the idle ones are
  /// passivated by ``run()`` in time. Reads the journal's whole list of ids:
  /// a record of the systems with work in flight would be the faster form.
  private static func wake(
    _ shards: [Int], of node: ClusterNode, systems: DurableHost<DeliveredState<State>, Delivery<Event>>,
    journal: any Journal, logger: Logger
  ) async {
    let coming = Set(shards)
    var after: String?
    do {
      while true {
        let ids = try await journal.systemIDs(after: after, limit: 500)
        guard let last = ids.last else { return }
        for id in ids where coming.contains(node.shardMap.shard(of: id)) && node.owns(id) {
          _ = try? await systems.system(id)
        }
        after = last
      }
    } catch {
      logger.error(
        "cluster host could not list the systems of the shards it took over",
        metadata: ["shards": "\(shards)", "error": "\(error)"])
    }
  }

  // MARK: - Sending

  /// Sends `event` to the system `id`, wherever it runs, and returns once
  /// it is acknowledged: committed to the inbox, from where it will be
  /// reduced exactly once, after every event this node sent to `id` before.
  ///
  /// ```swift
  /// try await carts.send(.add("tea"), to: "cart-42")
  /// ```
  ///
  /// - Throws: ``ClusterError/systemIDHoldsNUL(_:)`` for an id that
  ///   holds a NUL character; when the event could not be encoded or the
  ///   inbox row written. The event is then not acknowledged (a row whose
  ///   commit was lost with the connection may still be delivered).
  public func send(_ event: Event, to id: String) async throws {
    try Self.validate(id)
    let payload = try encoder.encode(event)
    let sequence: UInt64 = await withCheckedContinuation { (waiter: SenderSequences.Waiter) in
      if let sequence = sequences.withLock({ $0.take(id, orWait: waiter) }) { waiter.resume(returning: sequence) }
    }
    defer {
      if let handOff = sequences.withLock({ $0.finish(id) }) { handOff.0.resume(returning: handOff.1) }
    }
    try await inbox.insert(
      shard: node.shardMap.shard(of: id), target: id, sender: node.id, sequence: sequence, payload: payload,
      on: client, logger: logger)
  }

  /// Refuses an id that PostgreSQL's text cannot hold, with a message that
  /// says so, rather than the server's error about encodings.
  private static func validate(_ id: String) throws {
    if id.utf8.contains(0) { throw ClusterError.systemIDHoldsNUL(id) }
  }

  // MARK: - Delivering

  /// Delivers the inbox rows of the node's shards, oldest first, at most
  /// `limit`: each event is sent durably to its system (restored if need
  /// be), and its row deleted once it is stored. Returns how many rows it
  /// handled. ``run()`` calls it when woken; call it yourself to drive a
  /// host step by step.
  ///
  /// ```swift
  /// let delivered = try await carts.deliverInbox()
  /// ```
  @discardableResult
  public func deliverInbox(limit: Int = 1_000) async throws -> Int {
    let shards = node.ownedShards
    guard !shards.isEmpty else { return 0 }
    let rows = try await inbox.rows(of: shards, limit: limit, on: client, logger: logger)
    var byTarget: [String: [Inbox.Row]] = [:]
    var order: [String] = []
    for row in rows {
      if byTarget[row.target] == nil { order.append(row.target) }
      byTarget[row.target, default: []].append(row)
    }
    let delivered = await withTaskGroup(of: [Int64].self) { group in
      for target in order {
        let rows = byTarget[target]!
        group.addTask { await self.deliver(rows, to: target) }
      }
      return await group.reduce(into: []) { $0 += $1 }
    }
    try await inbox.delete(delivered, on: client, logger: logger)
    return delivered.count
  }

  /// Sends `rows` to `target` one by one, durably; returns the ids of the
  /// rows stored (or found stored already), stopping at the first failure so
  /// that a later row is never stored before an earlier one.
  private func deliver(_ rows: [Inbox.Row], to target: String) async -> [Int64] {
    var stored: [Int64] = []
    let decoder = JSONDecoder()
    // Worked out once per batch, and carried by its first event.
    var forgetting: [String]?
    for row in rows {
      // A shard given up meanwhile: the rows wait for its next owner.
      guard node.owns(target) else { break }
      do {
        let system = try await systems.system(target)
        if row.sequence > system.state.lastSequences[row.sender, default: 0] {
          let event = try decoder.decode(Event.self, from: row.payload)
          if forgetting == nil { forgetting = try await goneSenders(of: system.state, to: target) }
          try await system.sendDurably(
            Delivery(sender: row.sender, sequence: row.sequence, event: event, forgetting: forgetting ?? []))
          forgetting = []
        }
        stored.append(row.id)
      } catch is CancellationError {
        break  // run() was cancelled: the row waits for the next delivery.
      } catch {
        logger.error(
          "cluster host could not deliver an event",
          metadata: ["system": "\(target)", "sender": "\(row.sender)", "error": "\(error)"])
        break
      }
    }
    return stored
  }

  /// The senders recorded in `state` that left the cluster (missing from
  /// the node's live members) and have no row left in the inbox for
  /// `target`: none of their events can come again, so their records can
  /// go. A row of theirs still waiting keeps its record, which is what
  /// recognizes it if it was stored already.
  private func goneSenders(of state: DeliveredState<State>, to target: String) async throws -> [String] {
    let live = node.liveMembers
    let gone = state.lastSequences.keys.filter { !live.contains($0) }.sorted()
    guard !gone.isEmpty else { return [] }
    let waiting = try await inbox.senders(
      among: gone, to: target, shard: node.shardMap.shard(of: target), on: client, logger: logger)
    return gone.filter { !waiting.contains($0) }
  }

  /// Delivers the inbox as it fills, woken by its notifications, by the
  /// node's claims (a shard taken over may hold rows already), and every
  /// ``ClusterSettings/renewalInterval`` besides (for notifications
  /// missed), and passivates idle systems, until the
  /// calling task is cancelled.
  ///
  /// The host is a swift-service-lifecycle `Service`: run in a
  /// `ServiceGroup` after its node, a graceful shutdown (SIGTERM) ends the
  /// deliveries and stops its systems once their events are committed,
  /// before the node hands its shards over (see ``ClusterNode/run()``).
  ///
  /// ```swift
  /// let delivery = Task { await carts.run() }
  /// ```
  public func run() async {
    await cancelWhenGracefulShutdown { await self.deliverUntilCancelled() }
    if Task.isShuttingDownGracefully { await systems.stop() }
  }

  private func deliverUntilCancelled() async {
    let (wakes, wake) = AsyncStream.makeStream(of: Void.self, bufferingPolicy: .bufferingNewest(1))
    deliveryWake.withLock { $0 = { wake.yield() } }
    defer { deliveryWake.withLock { $0 = nil } }
    await withTaskGroup(of: Void.self) { group in
      group.addTask { [client, inbox, logger, isListening] in
        while !Task.isCancelled {
          do {
            try await client.withConnection { connection in
              try await connection.listen(on: inbox.channel) { notifications in
                isListening.withLock { $0 = true }
                defer { isListening.withLock { $0 = false } }
                for try await _ in notifications { wake.yield() }
              }
            }
          } catch {
            if Task.isCancelled { return }
            logger.error("cluster host stopped listening to its inbox", metadata: ["error": "\(error)"])
            try? await Task.sleep(for: .seconds(1))
          }
        }
      }
      group.addTask { [node] in
        while !Task.isCancelled {
          wake.yield()
          try? await Task.sleep(for: node.settings.renewalInterval)
        }
      }
      group.addTask { [systems] in await systems.run() }
      group.addTask { [self] in
        for await _ in wakes {
          do {
            // A full batch means more rows wait.
            while try await deliverInbox() == 1_000 {}
          } catch  where Task.isCancelled {
            return  // run() was cancelled mid-read: nothing went wrong.
          } catch {
            logger.error("cluster host could not read its inbox", metadata: ["error": "\(error)"])
          }
        }
      }
      // Cancelling the calling task cancels the three: the stream of wakes
      // then ends, and so do the listener and the timer.
      await group.waitForAll()
    }
  }

  // MARK: - Systems on this node

  /// The state of the system `id` when this node owns it (restoring it if
  /// need be), or `nil` when another node does.
  ///
  /// ```swift
  /// if let cart = try await carts.state(of: "cart-42") { print(cart.items) }
  /// ```
  public func state(of id: String) async throws -> State? {
    try Self.validate(id)
    guard node.owns(id) else { return nil }
    return try await systems.system(id).state.state
  }

  /// The system `id` on this node, for tests that act as a stale owner.
  func loadedSystem(_ id: String) async throws -> DurableSystem<DeliveredState<State>, Delivery<Event>> {
    try await systems.system(id)
  }

  /// The ids of the systems loaded on this node, ascending.
  public var loadedIDs: [String] { systems.loadedIDs }

  /// Stops every system of this host, once their events are committed.
  public func stop() async { await systems.stop() }
}
