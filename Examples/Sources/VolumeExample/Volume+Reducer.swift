extension Volume {
  /// The transitions: `From(VolumeState) On(IncreaseEvent) -> value + 1`, and
  /// `On(DecreaseEvent) -> value - 1`.
  public static func reduce(_ state: State, _ event: Event) -> State {
    switch event {
    case .increase: State(value: state.value + 1)
    case .decrease: State(value: state.value - 1)
    }
  }
}
