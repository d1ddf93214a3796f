import CustomDump

/// Feeds a recorded timeline's events through a reducer, from its first
/// moment's state, and reports the first moment whose state differs (G13).
///
/// ```swift
/// let report = Replay.check(recorder.moments, reduceReturning: Search.reduce)
/// if let divergence = report.divergence { print(divergence) }  // moment 4 … the diff
/// ```
public enum Replay {
  /// Replays `moments` through an in-place reducer.
  ///
  /// The first moment's state is the starting point (moment 0 when the
  /// timeline has its start; the oldest kept moment otherwise). Where the
  /// sequence numbers jump (moments dropped), replay cannot know the events
  /// in between: it counts a gap and goes on from the recorded state after it.
  /// Sequence numbers do not wrap: a moment after one numbered
  /// `UInt64.max` is a gap too.
  public static func check<State: Equatable & Sendable, Event: Sendable>(
    _ moments: [Moment<State, Event>], reduce: (inout State, Event) -> Void
  ) -> ReplayReport<State, Event> {
    guard var state = moments.first?.state else { return ReplayReport(replayed: 0, gaps: 0, divergence: nil) }
    var previous = moments[0]
    var replayed = 0
    var gaps = 0
    for moment in moments.dropFirst() {
      guard let event = moment.event else { continue }
      if !moment.directlyFollows(previous) {
        gaps += 1
        state = moment.state
        previous = moment
        continue
      }
      let before = state
      reduce(&state, event)
      replayed += 1
      if state != moment.state {
        let divergence = ReplayDivergence(
          moment: moment, stateBefore: before, replayedState: state,
          diff: diff(moment.state, state, format: .proportional) ?? "(the states differ but dump identically)")
        return ReplayReport(replayed: replayed, gaps: gaps, divergence: divergence)
      }
      previous = moment
    }
    return ReplayReport(replayed: replayed, gaps: gaps, divergence: nil)
  }

  /// Replays `moments` through a reducer that returns the new state.
  public static func check<State: Equatable & Sendable, Event: Sendable>(
    _ moments: [Moment<State, Event>], reduceReturning reduce: (State, Event) -> State
  ) -> ReplayReport<State, Event> {
    check(moments) { (state: inout State, event: Event) in state = reduce(state, event) }
  }
}

/// What a replay found.
public struct ReplayReport<State: Sendable, Event: Sendable>: Sendable {
  /// How many events were reduced again.
  public var replayed: Int
  /// How many gaps (dropped moments) replay stepped over.
  public var gaps: Int
  /// The first moment whose state differs, or `nil` if every state matched.
  public var divergence: ReplayDivergence<State, Event>?

  /// Whether every replayed state equals the recorded one.
  public var isIdentical: Bool { divergence == nil }
}

/// The first moment whose replayed state differs from the recorded one.
public struct ReplayDivergence<State: Sendable, Event: Sendable>: Sendable, CustomStringConvertible {
  /// The recorded moment.
  public var moment: Moment<State, Event>
  /// The replayed state before its event.
  public var stateBefore: State
  /// What the reducer produced now.
  public var replayedState: State
  /// CustomDump's diff: `−` recorded, `+` replayed.
  public var diff: String

  public var description: String {
    let event = moment.event.map { String(describing: $0) } ?? "none"
    return """
      moment \(moment.sequence) (event \(event)) replays to a different state:
      \(diff)
      (Recorded: −, Replayed: +)
      """
  }
}
