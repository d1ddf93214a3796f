/// How a node that does not own an id asks the owner for its state: over
/// HTTP in the service (``HTTPTallyForwarding``), a recording stand-in in
/// tests.
public protocol TallyForwarding: Sendable {
  /// Asks the node at `baseURL` for `GET /systems/{id}`, marked as
  /// forwarded by `nodeID` so that the owner does not forward it again.
  func tally(_ id: String, from baseURL: String, forwardedBy nodeID: String) async throws -> ForwardedAnswer
}

/// The owner's answer to a forwarded request, handed on as it came.
public struct ForwardedAnswer: Sendable, Equatable {
  /// The HTTP status code.
  public var status: Int
  /// The body, JSON.
  public var body: [UInt8]

  public init(status: Int, body: [UInt8]) {
    self.status = status
    self.body = body
  }
}
