import FeedbackLoopDurable

/// A simulated download server: it takes `latency` to serve a chunk, and
/// its answer takes `responseTime` more to reach the client; it drops some
/// connections (the same ones for a given seed and key), and keeps a table
/// of the requests it served by idempotency key (``ServedRequests``), so
/// that a request sent again with a key it served is answered from the
/// table at once, not served twice.
///
/// A client that dies while an answer is on its way (after the server
/// served, before the client stored what it got) sends the request again
/// when it restarts: with the same key, the server does not serve it twice.
///
/// ```swift
/// let server = DownloadServer(
///   latency: .milliseconds(400), responseTime: .milliseconds(100), clock: WallClock(), served: ServedRequests()
/// ) { print($0) }
/// let answer = try await server.fetch(request, key: DurableEffect.key)
/// ```
public final class DownloadServer: Sendable {
  /// How a request ended.
  public enum Answer: Sendable, Equatable {
    /// The chunk was sent.
    case delivered
    /// A request with this key was served before: the chunk is sent again
    /// from the server's table, without downloading it again.
    case deliveredBefore
    /// The connection dropped: ask again later.
    case dropped
  }

  /// Which connections drop.
  public enum Dropping: Sendable, Equatable {
    /// None.
    case never
    /// About a third of the first two attempts of a chunk, as the seed and
    /// the request's key say: the same for the same key, so that a request
    /// sent again after a crash meets the same answer.
    case seeded(UInt64)
    /// Every attempt of a chunk up to this one.
    case attempts(upTo: Int)
  }

  /// How long serving a chunk takes.
  public let latency: Duration
  /// How long an answer takes to reach the client, once served.
  public let responseTime: Duration
  /// The clock the server's time passes on.
  private let clock: any Clock<Duration>
  /// The requests served, by key.
  public let served: ServedRequests
  private let dropping: Dropping
  private let report: @Sendable (String) -> Void

  /// - Parameters:
  ///   - latency: how long serving a chunk takes, on `clock`.
  ///   - responseTime: how long the answer then takes to reach the client.
  ///   - clock: the server's clock.
  ///   - dropping: which connections drop.
  ///   - served: the table of served requests.
  ///   - report: told of each request and its answer, in one line.
  public init(
    latency: Duration, responseTime: Duration = .zero, clock: any Clock<Duration>, dropping: Dropping = .seeded(1),
    served: ServedRequests,
    report: @escaping @Sendable (String) -> Void = { _ in }
  ) {
    self.latency = latency
    self.responseTime = responseTime
    self.clock = clock
    self.dropping = dropping
    self.served = served
    self.report = report
  }

  /// Fetches one chunk, on behalf of the effect whose idempotency key is `key`.
  public func fetch(_ request: ChunkRequest, key: EffectKey?) async throws -> Answer {
    guard let key = key?.description else {
      fatalError(
        "DownloadServer.fetch needs the effect's idempotency key (DurableEffect.key): call it from an effect of a durable system."
      )
    }
    if served.contains(key: key) {
      report("\(request): key \(key) was served before: answered from the table, not downloaded again")
      return .deliveredBefore
    }
    try await clock.sleep(for: latency)
    if drops(request, key: key) {
      report("\(request): connection dropped")
      try await clock.sleep(for: responseTime)
      return .dropped
    }
    served.record(key: key, request: request)
    report("\(request): served, key \(key)")
    try await clock.sleep(for: responseTime)
    return .delivered
  }

  private func drops(_ request: ChunkRequest, key: String) -> Bool {
    switch dropping {
    case .never: return false
    case .attempts(let last): return request.attempt <= last
    case .seeded(let seed):
      guard request.attempt <= 2 else { return false }
      // FNV-1a over the key, mixed with the seed.
      var hash: UInt64 = 0xcbf2_9ce4_8422_2325 ^ (seed &* 0x9e37_79b9_7f4a_7c15)
      for byte in key.utf8 {
        hash ^= UInt64(byte)
        hash = hash &* 0x100_0000_01b3
      }
      return (hash >> 29) % 3 == 0
    }
  }
}
