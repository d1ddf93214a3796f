import Dispatch

/// Whether the caller runs on the main dispatch queue, where the main actor
/// runs its jobs: a question that does not stop the process when the answer
/// is no, unlike `MainActor.assumeIsolated`.
///
/// The core calls a store's `onStop` on whichever thread stops or drains its
/// system; the store takes the stop at once when it is on the main queue,
/// and hops to the main actor otherwise. A thread cannot stand for the main
/// actor here: on Linux, the main queue of an `async` program is drained by
/// a worker thread of the pool, not by the process's main thread.
@usableFromInline
enum MainQueue {
  /// Marks the main queue, once: `getSpecific` then finds the mark on the
  /// main queue only.
  private static let mark: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  /// Whether the caller runs on the main queue.
  @usableFromInline
  static var isCurrent: Bool { DispatchQueue.getSpecific(key: mark) == true }
}
