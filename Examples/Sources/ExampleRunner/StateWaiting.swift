import FeedbackLoop

/// Why a scripted session that waits for a real server gave up.
struct WaitTimedOut: Error, CustomStringConvertible {
  let what: String
  let after: Duration

  var description: String { "gave up waiting, after \(after), for \(what)" }
}

extension System {
  /// Waits until the state satisfies `condition` (the current state
  /// included), for at most `timeout` of real time: how a scripted session
  /// that talks to a real server waits for its answers.
  func waitUntil(
    _ what: String,
    timeout: Duration = .seconds(10),
    _ condition: @escaping @Sendable (State) -> Bool
  ) async throws {
    let states = self.states(buffering: .newest(1))
    let reached = await withTaskGroup(of: Bool.self) { group in
      group.addTask {
        for await state in states where condition(state) { return true }
        return false
      }
      group.addTask {
        try? await Task.sleep(for: timeout)
        return false
      }
      let first = await group.next() ?? false
      group.cancelAll()
      return first
    }
    guard reached else { throw WaitTimedOut(what: what, after: timeout) }
  }
}
