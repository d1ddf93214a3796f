import SearchExample
import Synchronization
import Testing

/// A search API whose calls wait until the test answers them, with what
/// another API (the real HTTP one) answers: the search system under test
/// runs on the test's manual executor, and a real request leaves it, so the
/// test makes the request itself, then hands its answer back.
///
/// A cancelled call ends at once with `CancellationError`, and is no longer
/// waiting: a test sees the cancellation at the API's edge.
final class RelayedSearchAPI: SearchAPI {
  private struct Call {
    let id: Int
    let request: PageRequest
    let continuation: CheckedContinuation<Page, any Error>
  }

  private let calls = Mutex<(next: Int, waiting: [Call])>((0, []))

  /// The requests waiting for an answer, oldest first.
  var waiting: [PageRequest] { calls.withLock { $0.waiting.map(\.request) } }

  func page(_ request: PageRequest) async throws -> Page {
    let id = calls.withLock { calls in
      calls.next += 1
      return calls.next
    }
    return try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { continuation in
        let cancelled = calls.withLock { calls -> Bool in
          if Task.isCancelled { return true }
          calls.waiting.append(Call(id: id, request: request, continuation: continuation))
          return false
        }
        if cancelled { continuation.resume(throwing: CancellationError()) }
      }
    } onCancel: {
      let call = calls.withLock { calls -> Call? in
        guard let index = calls.waiting.firstIndex(where: { $0.id == id }) else { return nil }
        return calls.waiting.remove(at: index)
      }
      call?.continuation.resume(throwing: CancellationError())
    }
  }

  /// Answers the oldest waiting call with what `api` answers to its request.
  func forwardOldest(to api: some SearchAPI) async {
    guard let call = calls.withLock({ $0.waiting.isEmpty ? nil : $0.waiting.removeFirst() }) else {
      Issue.record("No call of the search API is waiting.")
      return
    }
    do {
      call.continuation.resume(returning: try await api.page(call.request))
    } catch {
      call.continuation.resume(throwing: error)
    }
  }
}
