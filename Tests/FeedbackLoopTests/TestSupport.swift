import FeedbackLoop
import FeedbackLoopTesting
import Foundation

/// A list that any thread appends to, for recording what a loop did.
final class Log<Entry: Sendable>: @unchecked Sendable {
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

  func removeAll() {
    lock.lock()
    storage.removeAll()
    lock.unlock()
  }
}

/// A cell set once after the system exists, so that a feedback or reducer can
/// reach the system it belongs to.
final class Ref<Value: Sendable>: @unchecked Sendable {
  // Sendable: `value` is guarded by `lock`.
  private let lock = NSLock()
  private var stored: Value?

  var value: Value? {
    get {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
    set {
      lock.lock()
      stored = newValue
      lock.unlock()
    }
  }
}

/// A one-shot signal that an effect waits on without responding to
/// cancellation, so a test can make an effect send after it was cancelled.
final class Gate: @unchecked Sendable {
  // Sendable: `opened` and `waiters` are guarded by `lock`.
  private let lock = NSLock()
  private var opened = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  func wait() async {
    await withCheckedContinuation { continuation in
      lock.lock()
      if opened {
        lock.unlock()
        continuation.resume()
      } else {
        waiters.append(continuation)
        lock.unlock()
      }
    }
  }

  func open() {
    lock.lock()
    opened = true
    let waiting = waiters
    waiters = []
    lock.unlock()
    for waiter in waiting { waiter.resume() }
  }
}

/// Records every activity a monitor sees.
final class ActivityLog<State: Sendable, Event: Sendable>: @unchecked Sendable {
  // Sendable: all state is in `log`, which is thread-safe.
  let log = Log<SystemActivity<State, Event>>()

  var monitor: SystemMonitor<State, Event> { SystemMonitor { [log] in log.append($0) } }

  var reducedEvents: [Event] {
    log.entries.compactMap {
      if case .reduced(let event, _, _, _) = $0 { return event }
      return nil
    }
  }

  var states: [State] {
    log.entries.compactMap {
      if case .reduced(_, _, let to, _) = $0 { return to }
      return nil
    }
  }

  var started: [EffectID] {
    log.entries.compactMap {
      if case .effectStarted(let id) = $0 { return id }
      return nil
    }
  }

  var cancelled: [EffectID] {
    log.entries.compactMap {
      if case .effectCancelled(let id) = $0 { return id }
      return nil
    }
  }

  var finished: [EffectID] {
    log.entries.compactMap {
      if case .effectFinished(let id) = $0 { return id }
      return nil
    }
  }

  var discarded: [(Event, DiscardReason)] {
    log.entries.compactMap {
      if case .eventDiscarded(let event, let reason) = $0 { return (event, reason) }
      return nil
    }
  }

  var failures: [(EffectID, any Error)] {
    log.entries.compactMap {
      if case .effectFailed(let id, let error) = $0 { return (id, error) }
      return nil
    }
  }
}
