import FeedbackLoopDurable

extension DurableDownloads {
  /// What happens to the downloads. Times are carried by the events, since
  /// the reducer reads no clock.
  public enum Event: Codable, Sendable, Equatable {
    /// A file to download, in `chunks` chunks.
    case added(name: String, chunks: Int)
    /// The server delivered chunk `chunk` of `name`.
    case received(name: String, chunk: Int)
    /// The server dropped the connection for chunk `chunk` of `name`: ask
    /// again at `retryAt`.
    case failed(name: String, chunk: Int, retryAt: WallClock.Instant)
    /// The retry timer fired at `at`: every file whose deadline has come
    /// downloads again.
    case retryDue(at: WallClock.Instant)
  }
}
