import FeedbackLoop

extension Player {
  /// The player's five feedbacks; `player` seeks past the intro.
  ///
  /// - Parameter player: the video player whose seek the skip-intro button
  ///   waits for (the RxFeedback article's `player.rx.seek(to:)`).
  public static func feedbacks(player: some VideoPlayer) -> [Feedback<State, Event>] {
    [
      // While playing, one tick per second on the system's clock; pausing
      // makes the predicate false, which cancels the ticker.
      Feedback.onBecomingTrue({ $0.isPlaying }, name: "playback") { _ in
        .run { send in
          while true {
            try await send.clock.sleep(for: .seconds(1))
            send(.ticked)
          }
        }
      },
      // The RxFeedback article's first feedback binds the player's `hasIntroStarted`
      // stream; here it is a query of the position, sent when it changes.
      Feedback.query({ $0.isInIntro }, name: "intro detection") { isInIntro in
        .send(.hasIntroStarted(isInIntro))
      },
      // Each interaction while the HUD shows changes the query, which
      // replaces the timer (RxSwift's `flatMapLatest`); hiding cancels it.
      Feedback.query(\.hudTimerRequest, name: "hide the HUD") { _ in
        .after(hudHideDelay, send: .hideHUD)
      },
      // The RxFeedback article's `react(request:)`: one tick per second shown.
      .query(\.countdownRequest, name: "skip-intro countdown") { secondsLeft in
        .after(.seconds(1), send: .secondsLeftChanged(secondsLeft - 1))
      },
      // The seek is an effect; its completion is an event.
      Feedback.onBecomingTrue({ $0.skipIntro == .skipping }, name: "seek past the intro") { _ in
        .task {
          try await player.seek(to: introEnd)
          return .didSkipIntro
        }
      },
    ]
  }
}
