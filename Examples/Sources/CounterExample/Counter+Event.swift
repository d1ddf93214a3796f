extension Counter {
  /// What can happen to the count.
  public enum Event: Equatable, Sendable {
    /// The plus button was tapped.
    case increment
    /// The minus button was tapped.
    case decrement
  }
}
