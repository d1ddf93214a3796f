// The system that the durable crash test runs, shared by `durable-crash-host`
// and the tests that check it (this file is linked, not copied, into the
// PostgreSQL package and into both packages' tests, so that the host and the
// checks fold events with one reducer).
//
// Each system takes `.work(K)` from outside, acknowledged with
// `sendDurably`: K is the system's next number (1, 2, 3...), so a lost or a
// repeated event shows. A work item K stays pending until its effect, which
// writes "started" and "finished" lines to an fsynced log of its own, sends
// `.finished(K)`. The digest folds every event in order, so a state that
// skipped, repeated or reordered one differs from the fold.

/// A crash test system's state.
struct CrashState: Codable, Sendable, Equatable, CustomStringConvertible {
  /// The number of `.work` events folded (the last K).
  var workCount = 0
  /// FNV-1a over every event folded, in order.
  var digest: UInt64 = 0xcbf2_9ce4_8422_2325
  /// The work items whose effect has not sent `.finished`, ascending.
  var pending: [Int] = []

  var description: String { "work \(workCount), digest \(digest), pending \(pending)" }
}

/// A crash test system's events.
enum CrashEvent: Codable, Sendable, Equatable {
  case work(Int)
  case finished(Int)
}

enum CrashModel {
  static func reduce(_ state: inout CrashState, _ event: CrashEvent) {
    switch event {
    case .work(let item):
      state.workCount += 1
      state.digest = mix(state.digest, tag: 1, item)
      let index = state.pending.firstIndex { $0 > item } ?? state.pending.endIndex
      state.pending.insert(item, at: index)
    case .finished(let item):
      state.digest = mix(state.digest, tag: 2, item)
      state.pending.removeAll { $0 == item }
    }
  }

  static func fold(_ events: some Sequence<CrashEvent>) -> CrashState {
    var state = CrashState()
    for event in events { reduce(&state, event) }
    return state
  }

  private static func mix(_ digest: UInt64, tag: UInt8, _ value: Int) -> UInt64 {
    var digest = digest
    for byte in [tag] + withUnsafeBytes(of: Int64(value).littleEndian, Array.init) {
      digest = (digest ^ UInt64(byte)) &* 0x100_0000_01b3
    }
    return digest
  }

  /// The ids of a run's systems.
  static func systemIDs(count: Int, prefix: String = "system-") -> [String] {
    (0..<count).map { "\(prefix)\($0)" }
  }

  /// How long work item `item` of `system` takes, from the run's seed: up to
  /// 20 ms, so that a kill finds effects in flight.
  static func workMilliseconds(seed: UInt64, system: String, item: Int) -> Int {
    var random = CrashRandom(state: seed ^ UInt64(truncatingIfNeeded: item) &* 0x9E37_79B9)
    for byte in system.utf8 { random.state = (random.state ^ UInt64(byte)) &* 0x100_0000_01b3 }
    return Int(random.next() % 21)
  }
}

/// SplitMix64: a small seeded generator, the same on every platform.
struct CrashRandom: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}
