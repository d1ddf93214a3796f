/// The RxFeedback article's video player: a HUD that a tap toggles and that hides itself
/// three seconds after the last interaction, and a skip-intro button that
/// counts down from ten when the intro starts, then seeks past the intro.
///
/// The article builds these as RxSwift streams, then as RxFeedback systems: a
/// reducer for the state, and a feedback per loop — the hide timer, the
/// countdown, the seek whose completion is an event. Here they are one
/// system whose state holds the playback position, the HUD and the
/// skip-intro button, with five feedbacks:
///
/// | feedback | starts | cancels |
/// | --- | --- | --- |
/// | playback | a one-second ticker, when playing starts | when it pauses |
/// | intro detection | `.hasIntroStarted(_:)`, when the position enters or leaves the intro | — |
/// | hide the HUD | a 3-second timer per interaction while the HUD shows | on the next interaction, or when the HUD hides |
/// | skip-intro countdown | a one-second timer per value of the countdown | when the button hides |
/// | seek past the intro | the player's seek, when skipping starts | — |
///
/// Every timer sleeps on the system's clock, so a test clock drives them all.
///
/// ```swift
/// let player = System(
///   initial: Player.State(),
///   reduceReturning: Player.reduce,
///   feedbacks: Player.feedbacks(player: SimulatedVideoPlayer(clock: ContinuousClock()))
/// )
/// player.send(.tapped)  // the HUD shows, and hides 3 s later
/// ```
public enum Player {}
