import FeedbackLoop
import FeedbackLoopUI
import Foundation
import Observation

/// Counts the change notifications Observation delivers, from any thread.
final class ChangeCounter: @unchecked Sendable {
  // Sendable: `storage` is guarded by `lock`.
  private let lock = NSLock()
  private var storage = 0

  var count: Int {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }

  func increment() {
    lock.lock()
    storage += 1
    lock.unlock()
  }
}

/// A list that any thread appends to.
final class Recorder<Entry: Sendable>: @unchecked Sendable {
  // Sendable: `storage` is guarded by `lock`.
  private let lock = NSLock()
  private var storage: [Entry] = []

  func append(_ entry: Entry) {
    lock.lock()
    storage.append(entry)
    lock.unlock()
  }

  var entries: [Entry] {
    lock.lock()
    defer { lock.unlock() }
    return storage
  }
}

/// Tracks what `read` reads, as a SwiftUI view's body is tracked, and
/// counts how often Observation says it changed. Each notification tracks
/// `read` again, as SwiftUI does when it re-renders.
@MainActor
final class Tracker {
  let changes = ChangeCounter()
  private let read: @MainActor () -> Void

  init(_ read: @escaping @MainActor () -> Void) {
    self.read = read
    track()
  }

  var count: Int { changes.count }

  private func track() {
    withObservationTracking {
      read()
    } onChange: { [changes] in
      changes.increment()
    }
  }

  /// Tracks again after a notification (Observation's tracking is one-shot).
  func rearm() { track() }
}

extension Store where State: Sendable {
  /// Waits until the store's state satisfies `predicate`: for events that an
  /// effect sends, which reach a main-actor system with one hop.
  func waitUntil(_ predicate: (State) -> Bool) async {
    for await state in states where predicate(state) { return }
  }
}
