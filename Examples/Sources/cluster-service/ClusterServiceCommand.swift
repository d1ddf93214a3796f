import ArgumentParser
import ClusterServiceExample
import FeedbackLoopCluster
import FeedbackLoopDurable
import FeedbackLoopPostgreSQL
import Foundation
import Hummingbird
import Logging
import PostgresNIO
import ServiceLifecycle

/// One node of the cluster service: joins the cluster in the PostgreSQL
/// database at `--postgres`, runs the tallies of its shards, and serves
/// the HTTP API (`TallyRoutes`) on 127.0.0.1:`--port`. SIGTERM or SIGINT
/// stops the HTTP server, then the tallies once their events are committed,
/// then hands the node's shards over.
///
///   cluster-service --postgres postgres://feedbackloop@127.0.0.1:5432/postgres --port 8081 --name a
@main
struct ClusterServiceCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "cluster-service",
    abstract: "A node of the cluster service: tallies by id, over HTTP, on a PostgreSQL cluster.")

  @Option(help: "The database's URL (or FEEDBACKLOOP_POSTGRES_URL): postgres://user[:password]@host:port/database.")
  var postgres: String?

  @Option(help: "The HTTP port, on 127.0.0.1.")
  var port: Int = 8081

  @Option(help: "A name that starts the node's id, to read logs by.")
  var name: String = "node"

  @Option(help: "How long a dead node's ids wait for a new owner, in milliseconds.")
  var leaseMilliseconds: Int = 2_000

  @Option(help: "The shard count: the same for every node of one cluster.")
  var shards: Int = 16

  @Option(help: "The prefix of the cluster's and the journal's tables.")
  var tablePrefix: String = "tally_"

  @Option(help: "trace, debug, info, notice, warning, error or critical.")
  var logLevel: String = "info"

  func run() async throws {
    guard let url = postgres ?? ProcessInfo.processInfo.environment["FEEDBACKLOOP_POSTGRES_URL"] else {
      throw ValidationError("give --postgres URL or set FEEDBACKLOOP_POSTGRES_URL")
    }
    var logger = Logger(label: "cluster-service.\(name)")
    logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
    let client = PostgresClient(
      configuration: try Self.configuration(url), backgroundLogger: Logger(label: "postgres"))
    let baseURL = "http://127.0.0.1:\(port)"
    try await withThrowingTaskGroup(of: Void.self) { group in
      group.addTask { await client.run() }
      let node = try await ClusterNode.join(
        client: client, nodeID: "\(name)-\(UUID().uuidString.prefix(8).lowercased())",
        settings: ClusterSettings(
          shardCount: shards, leaseDuration: .milliseconds(leaseMilliseconds), tablePrefix: tablePrefix),
        logger: logger)
      let journal = try await PostgresJournal.open(
        client: client, tablePrefix: tablePrefix + "journal_", logger: logger)
      let host = try await ClusterHost<Tally, TallyEvent>(
        node: node, client: client, writer: JournalWriter(journal: journal),
        initial: Tally(), reduce: Tally.reduce,
        feedbacks: Tally.feedbacks { [logger] milestone, key in
          logger.info("milestone", metadata: ["reached": "\(milestone)", "key": "\(key ?? "-")"])
        },
        logger: logger)
      let addresses = NodeAddresses(tablePrefix: tablePrefix, logger: logger)
      try await addresses.register(node: node.id, baseURL: baseURL, on: client)
      let routes = TallyRoutes(
        directory: ClusterTallies(host: host, client: client, addresses: addresses, baseURL: baseURL),
        forwarding: HTTPTallyForwarding())
      var httpLogger = logger
      // A graceful shutdown cancels requests in flight, which Hummingbird logs as errors.
      httpLogger.logLevel = max(logger.logLevel, .warning)
      let application = Application(
        router: routes.router(),
        configuration: ApplicationConfiguration(
          address: .hostname("127.0.0.1", port: port), serverName: "FeedbackLoop cluster service"),
        onServerRunning: { [logger, node] _ in
          logger.info(
            "listening", metadata: ["url": "\(baseURL)", "node": "\(node.id)", "shards": "\(node.ownedShards)"])
        },
        logger: httpLogger)
      // A group shuts its services down in reverse order: the HTTP server
      // first, then the tallies, then the node hands its shards over.
      let services = ServiceGroup(
        services: [node, host, application], gracefulShutdownSignals: [.sigterm, .sigint], logger: logger)
      try await services.run()
      try? await addresses.remove(node: node.id, on: client)
      logger.info("stopped", metadata: ["node": "\(node.id)"])
      group.cancelAll()
    }
  }

  /// The client's configuration from a `postgres://` URL (no TLS: the
  /// example's server is on loopback).
  static func configuration(_ text: String) throws -> PostgresClient.Configuration {
    guard let url = URL(string: text), ["postgres", "postgresql"].contains(url.scheme ?? ""), let host = url.host,
      let username = url.user
    else { throw ValidationError("not a postgres://user@host:port/database URL: \(text)") }
    let database = url.path.isEmpty ? nil : String(url.path.dropFirst())
    var configuration = PostgresClient.Configuration(
      host: host, port: url.port ?? 5432, username: username, password: url.password, database: database,
      tls: .disable)
    configuration.options.connectTimeout = .seconds(2)
    return configuration
  }
}
