/// What `POST /systems/{id}/events` answers once the event is acknowledged.
public struct Acknowledgement: Codable, Sendable, Equatable {
  public var id: String
  /// The node that wrote the event to the cluster's inbox.
  public var node: String

  public init(id: String, node: String) {
    self.id = id
    self.node = node
  }
}
