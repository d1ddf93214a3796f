/// The body of `POST /systems/{id}/events`: `{"number": 5}`, the client's
/// fifth event to the id.
public struct CountRequest: Codable, Sendable, Equatable {
  public var number: Int

  public init(number: Int) { self.number = number }
}
