extension Player {
  /// The reducer: the only place the player's state changes.
  ///
  /// The HUD part is the RxFeedback article's `hudVisibilityReducer` (toggle, hide); the
  /// skip-intro part is its `skipIntroReducer`; taps, jumps and play/pause
  /// also count as interactions, which restart the HUD's timer.
  public static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .tapped:
      state.isHUDVisible.toggle()
      state.interactions += 1
    case .playPauseTapped:
      state.isPlaying.toggle()
      state.interactions += 1
    case .jumped(let seconds):
      state.position = min(max(state.position + seconds, 0), videoLength)
      state.interactions += 1
    case .hideHUD:
      state.isHUDVisible = false
    case .ticked:
      guard state.isPlaying else { return }
      state.position += 1
      if state.position >= videoLength {
        state.position = videoLength
        state.isPlaying = false
      }
    case .hasIntroStarted(let hasIntroStarted):
      state.skipIntro = hasIntroStarted ? .showing(secondsLeft: skipIntroTime) : .hidden
    case .secondsLeftChanged(let secondsLeft):
      guard case .showing = state.skipIntro else { return }
      state.skipIntro = secondsLeft == 0 ? .skipping : .showing(secondsLeft: secondsLeft)
    case .skipIntroTapped:
      guard case .showing = state.skipIntro else { return }
      state.skipIntro = .skipping
    case .didSkipIntro:
      state.skipIntro = .hidden
      state.position = max(state.position, introEnd)
    }
  }
}
