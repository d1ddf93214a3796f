/// Where search results come from.
public protocol SearchAPI: Sendable {
  /// The page that `request` asks for.
  ///
  /// Throws a ``SearchFailure`` when the page cannot be had, and
  /// `CancellationError` when the calling task is cancelled first.
  func page(_ request: PageRequest) async throws -> Page
}
