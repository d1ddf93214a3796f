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
