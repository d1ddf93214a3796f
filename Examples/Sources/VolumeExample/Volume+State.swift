extension Volume {
  /// The state: the speaker's current volume.
  public struct State: Equatable, Sendable {
    /// The volume, in steps.
    public var value: Int

    /// A volume of `value` steps.
    public init(value: Int) {
      self.value = value
    }
  }
}
