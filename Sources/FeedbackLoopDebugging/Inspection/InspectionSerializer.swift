/// How the inspection stream's messages show a state and an event: the
/// serialize hook of ``InspectionMessage``.
///
/// Return `nil` to leave a value out (a large or secret state, say).
///
/// ```swift
/// // Codable types, but never the password:
/// let serializer = InspectionSerializer<SignIn.State, SignIn.Event>(
///   state: { try JSONValue(encoding: $0.redactingPassword()) },
///   event: { try JSONValue(encoding: $0) }
/// )
/// ```
public struct InspectionSerializer<State: Sendable, Event: Sendable>: Sendable {
  /// The state's JSON, or `nil` to leave it out.
  public var state: @Sendable (State) throws -> JSONValue?
  /// The event's JSON, or `nil` to leave it out.
  public var event: @Sendable (Event) throws -> JSONValue?

  public init(
    state: @escaping @Sendable (State) throws -> JSONValue?,
    event: @escaping @Sendable (Event) throws -> JSONValue?
  ) {
    self.state = state
    self.event = event
  }

  /// Any types: their `String(describing:)` as a JSON string.
  public static var described: InspectionSerializer {
    InspectionSerializer(
      state: { .string(String(describing: $0)) }, event: { .string(String(describing: $0)) })
  }
}

extension InspectionSerializer where State: Encodable, Event: Encodable {
  /// `Encodable` types: their JSON.
  public static var codable: InspectionSerializer {
    InspectionSerializer(state: { try JSONValue(encoding: $0) }, event: { try JSONValue(encoding: $0) })
  }
}
