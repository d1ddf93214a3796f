import ClusterServiceExample
import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Testing

/// The HTTP layer alone: each request reaches its handler, over a directory
/// of in-memory tallies (no PostgreSQL, no socket: Hummingbird's router
/// test framework).
@Suite("The cluster service's routes")
struct TallyRoutesTests {
  static let ownerURL = "http://127.0.0.1:9002"

  /// Ids that start with "far-" live on the node at `ownerURL`; "lost-" on none.
  static func directory() -> InMemoryTallies {
    InMemoryTallies { id in
      if id.hasPrefix("far-") { return .elsewhere(baseURL: ownerURL) }
      if id.hasPrefix("lost-") { return .unowned }
      return nil
    }
  }

  static func application(
    _ directory: InMemoryTallies,
    _ forwarding: RecordingForwarding = RecordingForwarding(answer: ForwardedAnswer(status: 200, body: []))
  ) -> some ApplicationProtocol {
    Application(router: TallyRoutes(directory: directory, forwarding: forwarding).router())
  }

  static func count(_ number: Int) -> ByteBuffer {
    ByteBuffer(bytes: try! JSONEncoder().encode(CountRequest(number: number)))
  }

  /// The response's JSON body as a `T`, or `nil` when it is not one.
  static func decoded<T: Decodable>(_ type: T.Type, _ response: TestResponse) -> T? {
    try? JSONDecoder().decode(T.self, from: Data(buffer: response.body))
  }

  @Test func aPostedEventIsSentToItsIdAndAcknowledged() async throws {
    let directory = Self.directory()
    try await Self.application(directory).test(.router) { client in
      try await client.execute(uri: "/systems/cart-7/events", method: .post, body: Self.count(1)) { response in
        #expect(response.status == .accepted)
        #expect(Self.decoded(Acknowledgement.self, response) == Acknowledgement(id: "cart-7", node: "node-test"))
      }
    }
    #expect(directory.sent.withLock { $0.map { "\($0.0) to \($0.1)" } } == ["count(1) to cart-7"])
  }

  @Test func anEventForAnIdOwnedElsewhereIsSentFromThisNodeToo() async throws {
    let directory = Self.directory()
    try await Self.application(directory).test(.router) { client in
      try await client.execute(uri: "/systems/far-1/events", method: .post, body: Self.count(1)) { response in
        #expect(response.status == .accepted)
      }
    }
    #expect(directory.sent.withLock { $0.map(\.1) } == ["far-1"])
  }

  @Test func anOwnedIdIsReadHereWithTheEventsSentToIt() async throws {
    try await Self.application(Self.directory()).test(.router) { client in
      for number in [1, 2, 2, 3] {
        try await client.execute(uri: "/systems/cart-7/events", method: .post, body: Self.count(number)) { _ in }
      }
      try await client.execute(uri: "/systems/cart-7", method: .get) { response in
        #expect(response.status == .ok)
        #expect(
          Self.decoded(TallyAnswer.self, response)
            == TallyAnswer(id: "cart-7", node: "node-test", tally: Tally(counted: 3, last: 3, duplicates: 1)))
      }
    }
  }

  @Test func aReadOfAnIdOwnedElsewhereIsForwardedToItsOwnerAndItsAnswerHandedOn() async throws {
    let owners = TallyAnswer(id: "far-1", node: "node-far", tally: Tally(counted: 4, last: 4))
    let forwarding = RecordingForwarding(
      answer: ForwardedAnswer(status: 200, body: Array(try JSONEncoder().encode(owners))))
    try await Self.application(Self.directory(), forwarding).test(.router) { client in
      try await client.execute(uri: "/systems/far-1", method: .get) { response in
        #expect(response.status == .ok)
        #expect(Self.decoded(TallyAnswer.self, response) == owners)
      }
    }
    #expect(
      forwarding.forwarded.withLock { $0 } == [.init(id: "far-1", baseURL: Self.ownerURL, forwardedBy: "node-test")])
  }

  @Test func aForwardedReadThatFindsTheIdMovedAgainIsNotForwardedTwice() async throws {
    let forwarding = RecordingForwarding(answer: ForwardedAnswer(status: 200, body: []))
    try await Self.application(Self.directory(), forwarding).test(.router) { client in
      try await client.execute(
        uri: "/systems/far-1", method: .get, headers: [HTTPField.Name(TallyRoutes.forwardedByHeader)!: "node-other"]
      ) { response in
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers[.retryAfter] == "1")
      }
    }
    #expect(forwarding.forwarded.withLock { $0 }.isEmpty)
  }

  @Test func aReadOfAnIdNoNodeOwnsAsksTheClientToComeBack() async throws {
    try await Self.application(Self.directory()).test(.router) { client in
      try await client.execute(uri: "/systems/lost-1", method: .get) { response in
        #expect(response.status == .serviceUnavailable)
        #expect(response.headers[.retryAfter] == "1")
      }
    }
  }

  @Test func anEventWithoutANumberFromOneIsRefused() async throws {
    let directory = Self.directory()
    try await Self.application(directory).test(.router) { client in
      try await client.execute(uri: "/systems/cart-7/events", method: .post, body: Self.count(0)) { response in
        #expect(response.status == .badRequest)
      }
      try await client.execute(
        uri: "/systems/cart-7/events", method: .post, body: ByteBuffer(string: "{\"n\": 1}")
      ) { response in
        #expect(response.status == .badRequest)
      }
    }
    #expect(directory.sent.withLock { $0 }.isEmpty)
  }

  @Test func theHealthNamesTheNodeAndItsShards() async throws {
    try await Self.application(Self.directory()).test(.router) { client in
      try await client.execute(uri: "/health", method: .get) { response in
        #expect(response.status == .ok)
        #expect(
          Self.decoded(NodeHealth.self, response)
            == NodeHealth(node: "node-test", ownedShards: [0, 1], loadedSystems: 0))
      }
    }
  }
}
