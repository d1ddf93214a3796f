/// Where the service's HTTP handlers find the tallies: the cluster in the
/// service, a dictionary or an in-memory journal in tests.
///
/// ```swift
/// switch try await directory.lookUp("cart-7") {
/// case .here(let tally): print(tally.counted)
/// case .elsewhere(let baseURL): print("ask \(baseURL)")
/// case .unowned: print("its shard is changing hands")
/// }
/// ```
public protocol TallyDirectory: Sendable {
  /// The node's id, which the answers name.
  var nodeID: String { get }

  /// Sends `event` to the tally `id` wherever it runs, and returns once the
  /// event is acknowledged (it will be reduced once).
  func send(_ event: TallyEvent, to id: String) async throws

  /// The tally `id` when this node runs it, or where to ask for it.
  func lookUp(_ id: String) async throws -> TallyLookup

  /// What the node holds now, for `GET /health`.
  func health() async -> NodeHealth
}

/// Where a tally is, as ``TallyDirectory/lookUp(_:)`` finds it.
public enum TallyLookup: Sendable, Equatable {
  /// This node owns the id: its state.
  case here(Tally)
  /// Another node owns the id: that node's HTTP address, such as
  /// `http://127.0.0.1:8082`.
  case elsewhere(baseURL: String)
  /// No live node owns the id now (its owner died and its lease has not
  /// expired yet, or the shard is being handed over): ask again shortly.
  case unowned
}
