/// What `GET /systems/{id}` answers: the tally, and the node that owns it
/// (which answered, whichever node the request reached first).
public struct TallyAnswer: Codable, Sendable, Equatable {
  public var id: String
  /// The node that owns the id and read its state.
  public var node: String
  public var tally: Tally

  public init(id: String, node: String, tally: Tally) {
    self.id = id
    self.node = node
    self.tally = tally
  }
}

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

/// The body of `POST /systems/{id}/events`: `{"number": 5}`, the client's
/// fifth event to the id.
public struct CountRequest: Codable, Sendable, Equatable {
  public var number: Int

  public init(number: Int) { self.number = number }
}
