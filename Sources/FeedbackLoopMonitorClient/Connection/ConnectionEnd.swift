import FeedbackLoop

/// The end of a connection, awaited by any number of tasks: the link's
/// ``MonitorClient/close()``, a refused handshake. Set once, by the
/// connection's last thread, after it closed the socket.
final class ConnectionEnd: Sendable {
  private let state = Locked<(ended: Bool, waiting: [CheckedContinuation<Void, Never>])>((false, []))

  /// Marks the connection ended, and resumes every task that waits.
  func signal() {
    let waiting = state.withLock { state in
      state.ended = true
      defer { state.waiting = [] }
      return state.waiting
    }
    for task in waiting { task.resume() }
  }

  /// Returns once the connection has ended.
  func wait() async {
    await withCheckedContinuation { (task: CheckedContinuation<Void, Never>) in
      let ended = state.withLock { state in
        if !state.ended { state.waiting.append(task) }
        return state.ended
      }
      if ended { task.resume() }
    }
  }
}
