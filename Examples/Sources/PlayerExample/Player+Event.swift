extension Player {
  /// What can happen to the player.
  public enum Event: Equatable, Sendable {
    /// The person tapped the video: the HUD toggles.
    case tapped
    /// The person tapped play or pause: an interaction.
    case playPauseTapped
    /// The person jumped forward or back by some seconds: an interaction.
    case jumped(by: Int)
    /// The hide timer fired: the HUD hides.
    case hideHUD
    /// One second of the video played.
    case ticked
    /// The position entered (`true`) or left (`false`) the intro.
    case hasIntroStarted(Bool)
    /// The countdown of the skip-intro button moved on.
    case secondsLeftChanged(Int)
    /// The person tapped the skip-intro button.
    case skipIntroTapped
    /// The player finished seeking past the intro.
    case didSkipIntro
  }
}
