/// The skip-intro button: the RxFeedback article's `SkipIntroState`.
public enum SkipIntro: Equatable, Sendable {
  /// No button: the intro is not playing, or was skipped.
  case hidden
  /// The button shows, and skips the intro by itself in `secondsLeft` seconds.
  case showing(secondsLeft: Int)
  /// The player is seeking past the intro; the button hides when it is done.
  case skipping
}
