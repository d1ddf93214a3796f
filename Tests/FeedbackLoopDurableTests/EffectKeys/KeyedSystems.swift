import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting

/// A download queue: a keyed feedback downloads each queued file, one
/// effect per file.
enum Downloads {
  struct State: Codable, Sendable, Equatable {
    var queued: Set<String> = []
    var done: [String] = []
    var ticks = 0
  }

  enum Event: Codable, Sendable, Equatable {
    case enqueue(String)
    case downloaded(String)
    case tick
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .enqueue(let file): state.queued.insert(file)
    case .downloaded(let file):
      state.queued.remove(file)
      state.done.append(file)
    case .tick: state.ticks += 1
    }
  }

  /// Each download records its key, then takes a minute of the test clock.
  static func downloads(keys: Locked<[EffectKey?]>) -> Feedback<State, Event> {
    .requests(\.queued, name: "download") { file in
      .run { send in
        keys.withLock { $0.append(DurableEffect.key) }
        try await send.clock.sleep(for: .seconds(60))
        send(.downloaded(file))
      }
    }
  }
}

extension Account {
  /// A payout that records its key, then takes a minute of the test clock.
  static func slowPayouts(keys: Locked<[EffectKey?]>, name: String = "payout") -> Feedback<State, Event> {
    .query(\.pendingPayout, name: name) { amount in
      .run { send in
        keys.withLock { $0.append(DurableEffect.key) }
        try await send.clock.sleep(for: .seconds(60))
        send(.paidOut(amount))
      }
    }
  }
}
