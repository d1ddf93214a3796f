extension Counter {
  /// The reducer: the only place the count changes.
  public static func reduce(_ count: State, _ event: Event) -> State {
    switch event {
    case .increment: count + 1
    case .decrement: count - 1
    }
  }
}
