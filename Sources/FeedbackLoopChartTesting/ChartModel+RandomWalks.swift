import FeedbackLoopDeclarative

/// A sequence of steps after which an invariant does not hold, shrunk.
public struct ChartCounterexample<Context: Sendable, Event: Sendable>: Sendable, CustomStringConvertible {
  /// The shortest sequence found that breaks the invariant (no step of it
  /// can be removed and still break it).
  public let steps: [ChartStep<Event>]
  /// The state after the last step.
  public let state: ChartSnapshot<Context>
  /// How long the walk that first broke the invariant was.
  public let originalLength: Int

  public var description: String {
    "invariant broken after \(steps.map(\.description).joined(separator: ", ")) "
      + "(shrunk from \(originalLength) steps) in \(state)"
  }
}

/// SplitMix64: a seeded generator, so that a walk can be replayed.
struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

extension ChartModel {
  /// Random walks of `walks` × `length` steps (events and waits, drawn
  /// with a generator seeded by `seed`), checking `invariant` on the
  /// initial state and after each step. The first walk that breaks it is
  /// shrunk to a minimal failing sequence; `nil` when none does.
  ///
  /// ```swift
  /// let failure = model.randomWalks(seed: 7) { $0.context.volume >= 0 }
  /// #expect(failure == nil, "\(failure!)")
  /// ```
  ///
  /// Shrinking removes chunks of steps, halving the chunk size, while the
  /// shorter sequence still fails (delta debugging), then cuts the
  /// sequence after its first failing step. Written here rather than taken
  /// from swift-property-based: its generators and shrinkers are built for
  /// values, this shrinks a replayed sequence against a reducer; and this
  /// target belongs to a library product, so depending on it would make
  /// every app that depends on FeedbackLoop fetch and pin it, whichever
  /// products the app uses (SwiftPM 6.3 resolves the dependencies of every
  /// product's targets; only a dependency of test targets alone is left
  /// out, which is why the root manifest may name it for its own tests),
  /// and every app whose tests use this product compile it.
  public func randomWalks(
    walks: Int = 100, length: Int = 50, seed: UInt64 = 0,
    invariant: (ChartSnapshot<Context>) -> Bool
  ) -> ChartCounterexample<Context, Event>? {
    var generator = SplitMix64(state: seed)
    let steps = alphabet
    guard !steps.isEmpty else { return nil }
    for _ in 0..<walks {
      var walk: [ChartStep<Event>] = []
      for _ in 0..<length { walk.append(steps[Int(generator.next() % UInt64(steps.count))]) }
      guard let failing = firstFailure(walk, invariant) else { continue }
      let shrunk = resolved(shrink(Array(walk[..<failing]), invariant))
      let state = replay(shrunk).last ?? chart.initialState(context: context)
      return ChartCounterexample(steps: shrunk, state: state, originalLength: failing)
    }
    return nil
  }

  /// The states after each step of `walk` (a wait with nothing pending
  /// changes nothing), the initial one first.
  func replay(_ walk: [ChartStep<Event>]) -> [ChartSnapshot<Context>] {
    var state = initialTimedState()
    var states = [state.chart]
    for step in walk {
      _ = chart.apply(step, to: &state)
      states.append(state.chart)
    }
    return states
  }

  /// `walk` with each wait's duration filled in, and the waits that let
  /// nothing pass left out.
  func resolved(_ walk: [ChartStep<Event>]) -> [ChartStep<Event>] {
    var state = initialTimedState()
    return walk.compactMap { chart.apply($0, to: &state) }
  }

  /// How many steps of `walk` it takes to break `invariant`, if it breaks.
  func firstFailure(_ walk: [ChartStep<Event>], _ invariant: (ChartSnapshot<Context>) -> Bool) -> Int? {
    replay(walk).firstIndex { !invariant($0) }
  }

  func shrink(
    _ failing: [ChartStep<Event>], _ invariant: (ChartSnapshot<Context>) -> Bool
  ) -> [ChartStep<Event>] {
    var current = failing
    var chunk = max(1, current.count / 2)
    while true {
      var position = 0
      var removedAny = false
      while position < current.count {
        var candidate = current
        candidate.removeSubrange(position..<min(current.count, position + chunk))
        if let failing = firstFailure(candidate, invariant) {
          current = Array(candidate[..<failing])
          removedAny = true
        } else {
          position += chunk
        }
      }
      if chunk == 1 && !removedAny { return current }
      if !removedAny { chunk = max(1, chunk / 2) }
    }
  }
}
