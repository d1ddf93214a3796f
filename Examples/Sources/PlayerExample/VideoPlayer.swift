/// What the skip-intro button needs of a video player: a seek that takes
/// time (the RxFeedback article's `player.rx.seek(to:)`, a `Completable`).
public protocol VideoPlayer: Sendable {
  /// Seeks to `position`, in seconds, and returns when the seek is done.
  func seek(to position: Int) async throws
}
