import FeedbackLoop
import FeedbackLoopDurable

extension DurableDownloads {
  /// The fetch and retry feedbacks.
  ///
  /// - Parameters:
  ///   - server: where the chunks come from.
  ///   - clock: the wall clock a dropped chunk's retry deadline is read from
  ///     (the system's own, so that the retry timer waits on the same time).
  ///   - retryAfter: the wait before the second attempt of a chunk; it
  ///     doubles with each further attempt.
  public static func feedbacks(
    server: DownloadServer, clock: WallClock, retryAfter: Duration = .seconds(1)
  ) -> [Feedback<State, Event>] {
    [
      // Named, so that the effects' keys do not move with this line. A task:
      // the effect ends with its event, when its request leaves the set.
      .requests(\.chunkRequests, name: "fetch") { request in
        .task {
          switch try await server.fetch(request, key: DurableEffect.key) {
          case .delivered, .deliveredBefore:
            return .received(name: request.file, chunk: request.chunk)
          case .dropped:
            let backoff = retryAfter * (1 << min(request.attempt - 1, 10))
            return .failed(name: request.file, chunk: request.chunk, retryAt: clock.now.advanced(by: backoff))
          }
        }
      },
      .deadline(\.nextRetry, name: "retry") { .retryDue(at: $0) },
    ]
  }
}
