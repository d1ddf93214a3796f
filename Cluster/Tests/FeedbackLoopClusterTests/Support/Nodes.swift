import Foundation
import Logging
import PostgresNIO

@testable import FeedbackLoopCluster

extension TestServer {
  /// Runs `body` with `count` clients of this server, each its own (as the
  /// nodes of several processes would have), running as long as `body` does.
  func withClients<Result: Sendable>(
    _ count: Int, _ body: @escaping @Sendable ([PostgresClient]) async throws -> Result
  ) async throws -> Result {
    let clients = (0..<count).map { _ in
      PostgresClient(configuration: configuration, backgroundLogger: Logger(label: "test"))
    }
    return try await withThrowingTaskGroup(of: Result?.self) { group in
      for client in clients {
        group.addTask {
          await client.run()
          return nil
        }
      }
      group.addTask { try await body(clients) }
      defer { group.cancelAll() }
      while let result = try await group.next() {
        if let result { return result }
      }
      throw ServerError(message: "the clients stopped before the test did")
    }
  }
}

/// The owner of each shard as the cluster's table says, for the tests' checks.
func shardOwners(_ client: PostgresClient, _ settings: ClusterSettings) async throws -> [Int: String] {
  var owners: [Int: String] = [:]
  let table = ClusterTables(prefix: settings.tablePrefix).shards
  for try await (shard, owner) in try await client.query(
    "SELECT shard, owner FROM \(unescaped: table) WHERE owner IS NOT NULL AND expires_at > now()",
    logger: Logger(label: "test")
  ).decode((Int32, String).self) {
    owners[Int(shard)] = owner
  }
  return owners
}
