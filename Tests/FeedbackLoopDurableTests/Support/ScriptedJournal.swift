import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// A journal whose appends a test scripts by their number: held until the
/// test opens them, made to throw, or refused (the id claimed again just
/// before). It records every call, and what the journal answered.
final class ScriptedJournal: Journal {
  enum Fault: Sendable { case throwing, refusing }

  private struct Script {
    var held: Set<Int> = []
    var opened: Set<Int> = []
    var waiting: [Int: CheckedContinuation<Void, Never>] = [:]
    var faults: [Int: Fault] = [:]
    var calls: [[JournalBatch]] = []
    /// `nil` while the call runs, or when it threw.
    var results: [[JournalAppendResult]?] = []
    var callWaiters: [(count: Int, waiter: CheckedContinuation<Void, Never>)] = []
    var answeredWaiters: [(count: Int, waiter: CheckedContinuation<Void, Never>)] = []
    var answered = 0
  }

  let base = InMemoryJournal()
  private let script = Locked(Script())

  /// Makes the append call `number` (from 1) wait for `open(number)`.
  func hold(_ numbers: Int...) { script.withLock { $0.held.formUnion(numbers) } }

  func open(_ number: Int) {
    let waiter = script.withLock { script in
      script.opened.insert(number)
      return script.waiting.removeValue(forKey: number)
    }
    waiter?.resume()
  }

  func fault(_ fault: Fault, at number: Int) { script.withLock { $0.faults[number] = fault } }

  var calls: [(batches: [JournalBatch], results: [JournalAppendResult]?)] {
    script.withLock { script in Array(zip(script.calls, script.results)) }
  }

  /// Returns once `count` calls have arrived (held or not).
  func waitForCalls(_ count: Int) async {
    await withCheckedContinuation { waiter in
      let arrived = script.withLock { script in
        if script.calls.count >= count { return true }
        script.callWaiters.append((count, waiter))
        return false
      }
      if arrived { waiter.resume() }
    }
  }

  /// Returns once `count` calls have been answered (or have thrown).
  func waitForAnswers(_ count: Int) async {
    await withCheckedContinuation { waiter in
      let answered = script.withLock { script in
        if script.answered >= count { return true }
        script.answeredWaiters.append((count, waiter))
        return false
      }
      if answered { waiter.resume() }
    }
  }

  func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult] {
    let (number, arrived) = script.withLock { script -> (Int, [CheckedContinuation<Void, Never>]) in
      script.calls.append(batches)
      script.results.append(nil)
      let count = script.calls.count
      var arrived: [CheckedContinuation<Void, Never>] = []
      script.callWaiters.removeAll { entry in
        guard entry.count <= count else { return false }
        arrived.append(entry.waiter)
        return true
      }
      return (count, arrived)
    }
    for waiter in arrived { waiter.resume() }
    await withCheckedContinuation { waiter in
      let runsNow = script.withLock { script in
        guard script.held.contains(number), !script.opened.contains(number) else { return true }
        script.waiting[number] = waiter
        return false
      }
      if runsNow { waiter.resume() }
    }
    defer {
      let answered = script.withLock { script -> [CheckedContinuation<Void, Never>] in
        script.answered += 1
        let count = script.answered
        var answered: [CheckedContinuation<Void, Never>] = []
        script.answeredWaiters.removeAll { entry in
          guard entry.count <= count else { return false }
          answered.append(entry.waiter)
          return true
        }
        return answered
      }
      for waiter in answered { waiter.resume() }
    }
    switch script.withLock({ $0.faults[number] }) {
    case .throwing?:
      throw InMemoryJournal.InjectedFailure()
    case .refusing?:
      for id in Set(batches.map(\.systemID)) { _ = try await base.claim(id) }
    case nil:
      break
    }
    let results = try await base.append(batches)
    script.withLock { $0.results[number - 1] = results }
    return results
  }

  func claim(_ systemID: String) async throws -> JournalClaim { try await base.claim(systemID) }
  func load(_ systemID: String) async throws -> JournalHistory? { try await base.load(systemID) }
  func systemIDs(after id: String?, limit: Int) async throws -> [String] {
    try await base.systemIDs(after: id, limit: limit)
  }
  func delete(_ systemID: String) async throws { try await base.delete(systemID) }
}
