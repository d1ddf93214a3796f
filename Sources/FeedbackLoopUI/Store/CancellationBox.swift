import FeedbackLoop

/// Holds how to cancel a subscription or an observation, so that a
/// `@Sendable` closure (an `AsyncStream`'s termination handler, a Combine
/// cancel handler) can cancel it from any thread, even before it is held.
final class CancellationBox: @unchecked Sendable {
  // Sendable: `cancelAction` and `cancelled` are read and written under
  // `lock` only. The action is called outside the lock, at most once; the
  // actions held here are `AnyCancellable.cancel()` and
  // `StateObservation.cancel()`, both of which may be called from any thread.
  private let lock = Lock()
  private var cancelAction: (() -> Void)?
  private var cancelled = false

  /// Keeps `cancel` until ``cancel()``; calls it at once if ``cancel()``
  /// came first.
  func hold(_ cancel: @escaping () -> Void) {
    let cancelNow = lock.withLock {
      if !cancelled { cancelAction = cancel }
      return cancelled
    }
    if cancelNow { cancel() }
  }

  /// Cancels what is held, and what is held later.
  func cancel() {
    let action = lock.withLock {
      cancelled = true
      defer { cancelAction = nil }
      return cancelAction
    }
    action?()
  }
}
