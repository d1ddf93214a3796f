import FeedbackLoop
import FeedbackLoopDurable
import Foundation

/// An in-memory journal whose appends a test can hold until it releases
/// them, and which records every call to `append`: a disk that has not yet
/// answered, without a sleep.
final class HeldJournal: Journal {
  private struct Calls {
    var isHolding = false
    var held: [CheckedContinuation<Void, Never>] = []
    var calls: [[JournalBatch]] = []
    var callWaiters: [(count: Int, waiter: CheckedContinuation<Void, Never>)] = []
  }

  let base = InMemoryJournal()
  private let calls = Locked(Calls())

  /// Every call to `append` so far, its batches, in the order they came.
  var appendCalls: [[JournalBatch]] { calls.withLock { $0.calls } }

  /// Makes the appends that come from now on wait for `release()`.
  func hold() { calls.withLock { $0.isHolding = true } }

  /// Lets the held appends go on, and the later ones run at once.
  func release() {
    let held = calls.withLock { calls in
      calls.isHolding = false
      defer { calls.held = [] }
      return calls.held
    }
    for waiter in held { waiter.resume() }
  }

  /// Returns once `count` calls to `append` have arrived (held or not).
  func waitForAppendCalls(_ count: Int) async {
    await withCheckedContinuation { waiter in
      let arrived = calls.withLock { calls in
        if calls.calls.count >= count { return true }
        calls.callWaiters.append((count, waiter))
        return false
      }
      if arrived { waiter.resume() }
    }
  }

  func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult] {
    await withCheckedContinuation { waiter in
      let (runsNow, arrived) = calls.withLock { calls -> (Bool, [CheckedContinuation<Void, Never>]) in
        calls.calls.append(batches)
        let count = calls.calls.count
        var arrived: [CheckedContinuation<Void, Never>] = []
        calls.callWaiters.removeAll { entry in
          guard entry.count <= count else { return false }
          arrived.append(entry.waiter)
          return true
        }
        if calls.isHolding { calls.held.append(waiter) }
        return (!calls.isHolding, arrived)
      }
      for waiter in arrived { waiter.resume() }
      if runsNow { waiter.resume() }
    }
    return try await base.append(batches)
  }

  func claim(_ systemID: String) async throws -> JournalClaim { try await base.claim(systemID) }

  func load(_ systemID: String) async throws -> JournalHistory? { try await base.load(systemID) }

  func systemIDs(after id: String?, limit: Int) async throws -> [String] {
    try await base.systemIDs(after: id, limit: limit)
  }

  func delete(_ systemID: String) async throws { try await base.delete(systemID) }
}
