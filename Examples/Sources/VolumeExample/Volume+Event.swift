extension Volume {
  /// What can happen to the volume: the seed's `IncreaseEvent` and `DecreaseEvent`.
  public enum Event: Equatable, Sendable {
    /// One step up.
    case increase
    /// One step down.
    case decrease
  }
}
