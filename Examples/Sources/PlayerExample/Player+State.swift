extension Player {
  /// Where the video is, and what shows over it.
  public struct State: Equatable, Sendable {
    /// The playback position, in seconds.
    public var position: Int
    /// Whether the video plays.
    public var isPlaying: Bool
    /// Whether the HUD (the player's controls) shows.
    public var isHUDVisible: Bool
    /// How many times the person interacted with the player: each
    /// interaction starts the HUD's three seconds again.
    public var interactions: Int
    /// The skip-intro button.
    public var skipIntro: SkipIntro

    /// A player at `position`, playing or not, with the HUD hidden and no
    /// skip-intro button.
    public init(
      position: Int = 0,
      isPlaying: Bool = true,
      isHUDVisible: Bool = false,
      interactions: Int = 0,
      skipIntro: SkipIntro = .hidden
    ) {
      self.position = position
      self.isPlaying = isPlaying
      self.isHUDVisible = isHUDVisible
      self.interactions = interactions
      self.skipIntro = skipIntro
    }

    /// Whether the position is inside the intro: the RxFeedback article's `hasIntroStarted`,
    /// the query of the intro detection feedback.
    public var isInIntro: Bool {
      (Player.introStart..<Player.introEnd).contains(position)
    }

    /// The number of the last interaction while the HUD shows, `nil` while
    /// it is hidden: the query of the hide timer.
    public var hudTimerRequest: Int? {
      isHUDVisible ? interactions : nil
    }

    /// The seconds left while the skip-intro button counts down: the query
    /// of the countdown (the RxFeedback article's `react(request:)`).
    public var countdownRequest: Int? {
      guard case .showing(let secondsLeft) = skipIntro else { return nil }
      return secondsLeft
    }
  }
}
