/// One run of a chart: made with each state from
/// ``Statechart/initialState(context:)`` and shared by the states that follow
/// it. A system's ``ChartDelays`` queues each run's delays apart, and a
/// state of another run (a system set back to a fresh initial state) arms
/// its delays anew.
final class ChartRun: Sendable {
  init() {}
}

/// What a delayed transition's feedback watches: one entry of its state in
/// one run. Equal while the state stays active; a new entry is a new query,
/// which cancels the delay of the old one (G4) and starts another.
struct DelayArm: Sendable, Equatable {
  let entry: UInt32
  let run: ChartRun

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.entry == rhs.entry && lhs.run === rhs.run }
}
