extension Volume {
  /// What can happen to the volume: the Feedbacks README's `IncreaseEvent` and `DecreaseEvent`.
  public enum Event: Equatable, Sendable {
    /// One step up.
    case increase
    /// One step down.
    case decrease
  }
}
