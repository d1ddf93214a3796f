/// Why a ``DurableHost`` did not give the system of an id.
///
/// This enum will grow: end a `switch` over it with `default:` or
/// `@unknown default:`.
///
/// ```swift
/// do {
///   try await carts.send(.add("tea"), to: "cart-42")
/// } catch DurableHostError.restoreFailed(let id, let error) {
///   log.error("cart \(id) could not be restored: \(error)")
/// }
/// ```
public enum DurableHostError: Error, CustomStringConvertible {
  /// The restore of the system failed (a record that does not decode, a
  /// journal that does not answer): the system is not loaded, the host
  /// goes on, and the next get of the id tries again.
  case restoreFailed(systemID: String, underlying: any Error)
  /// The host was stopped.
  case stopped

  public var description: String {
    switch self {
    case .restoreFailed(let id, let error):
      "The durable host could not restore system \"\(id)\": \(error). The host goes on; "
        + "the next event or get for \"\(id)\" tries to restore it again."
    case .stopped:
      "The durable host was stopped: it restores no system and takes no event."
    }
  }
}
