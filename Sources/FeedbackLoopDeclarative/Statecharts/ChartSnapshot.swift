/// The state of a running statechart, the `State` of its system: which
/// states are active (its configuration), what its history states
/// remember, and the data the transitions and actions read and change
/// (`context`).
///
/// A snapshot, not a ``ChartState``: a ``ChartState`` declares one state of
/// the chart; a `ChartSnapshot` says which of them are active at a moment.
///
/// ```swift
/// player.state.isActive("paused")   // true
/// player.state.activeStates         // ["player", "loaded", "paused", ...]
/// player.state.context.volume       // 7
/// ```
///
/// Two states are equal when their configurations, histories and contexts
/// are: how many times each state was entered (which keys the activities
/// and delays), and which run of the chart the state belongs to (which
/// orders the delays), are bookkeeping, left out.
public struct ChartSnapshot<Context: Sendable>: Sendable {
  /// The data the chart's actions change.
  public var context: Context
  /// One bit per active state, by index in document order.
  @usableFromInline var configuration: UInt64 = 0
  /// One bit per state that was active when an ancestor with a history
  /// state was last left.
  @usableFromInline var history: UInt64 = 0
  /// How many times each state was entered: a new entry starts its
  /// activities and delays again.
  @usableFromInline var entries: ContiguousArray<UInt32>
  /// Whether a final child of the chart itself was entered.
  public var isFinished: Bool { finished }
  @usableFromInline var finished = false
  let layout: ChartLayout
  /// The run this state belongs to: each initial state starts one, and the
  /// states after it keep it (the chart's delays are queued per run).
  let run = ChartRun()

  init(context: Context, layout: ChartLayout) {
    self.context = context
    self.layout = layout
    self.entries = ContiguousArray(repeating: 0, count: layout.names.count)
  }

  /// Whether the state named `id` is active.
  public func isActive(_ id: String) -> Bool {
    guard let index = layout.index[id] else { return false }
    return configuration & (1 << UInt64(index)) != 0
  }

  /// The active states, in document order (ancestors before descendants).
  public var activeStates: [String] {
    layout.names.indices.filter { configuration & (1 << UInt64($0)) != 0 }.map { layout.names[$0] }
  }

  /// The active states that have no active child (atomic and final
  /// states), in document order: one per active parallel region.
  public var activeLeaves: [String] {
    layout.names.indices.filter { index in
      guard configuration & (1 << UInt64(index)) != 0 else { return false }
      switch layout.kinds[index] {
      case .atomic, .final: return true
      default: return false
      }
    }.map { layout.names[$0] }
  }

  @inlinable @inline(__always) func isActive(index: Int) -> Bool { configuration & (1 << UInt64(index)) != 0 }
}

extension ChartSnapshot: Equatable where Context: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.configuration == rhs.configuration && lhs.history == rhs.history && lhs.finished == rhs.finished
      && lhs.context == rhs.context
  }
}

extension ChartSnapshot: CustomStringConvertible {
  public var description: String { "[\(activeLeaves.joined(separator: ", "))] \(context)" }
}
