/// The state of a running statechart: which states are active (its
/// configuration), what its history states remember, and the data the
/// transitions and actions read and change (`context`).
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
public struct StatechartState<Context: Sendable>: Sendable {
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

extension StatechartState: Equatable where Context: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    lhs.configuration == rhs.configuration && lhs.history == rhs.history && lhs.finished == rhs.finished
      && lhs.context == rhs.context
  }
}

extension StatechartState: CustomStringConvertible {
  public var description: String { "[\(activeLeaves.joined(separator: ", "))] \(context)" }
}

/// The events a statechart's system reduces: the user's events, and the
/// expiry of a delayed transition (sent by the chart's own feedbacks).
///
/// ```swift
/// player.send(.event(.pause))
/// player.send(.pause)          // the same, through System.send(_:)
/// ```
public struct ChartEvent<Event: Sendable>: Sendable {
  @usableFromInline enum Kind: Sendable {
    case event(Event)
    case timeout(transition: Int, entry: UInt32)
  }
  @usableFromInline let kind: Kind

  @usableFromInline init(kind: Kind) { self.kind = kind }

  /// A user's event.
  @inlinable public static func event(_ event: Event) -> ChartEvent { ChartEvent(kind: .event(event)) }

  static func timeout(transition: Int, entry: UInt32) -> ChartEvent {
    ChartEvent(kind: .timeout(transition: transition, entry: entry))
  }

  /// The user's event, or `nil` for a delay's expiry.
  public var event: Event? {
    if case .event(let event) = kind { event } else { nil }
  }
}

extension ChartEvent: CustomStringConvertible {
  public var description: String {
    switch kind {
    case .event(let event): String(describing: event)
    case .timeout(let transition, _): "timeout(\(transition))"
    }
  }
}

extension ChartEvent: Equatable where Event: Equatable {
  public static func == (lhs: Self, rhs: Self) -> Bool {
    switch (lhs.kind, rhs.kind) {
    case (.event(let left), .event(let right)): left == right
    case (.timeout(let left, let leftEntry), .timeout(let right, let rightEntry)):
      left == right && leftEntry == rightEntry
    default: false
    }
  }
}
