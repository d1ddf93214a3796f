/// What a chart's configuration is, without its context: two states with
/// the same id have the same active states and history. The model-based
/// tests explore charts by it.
public struct ChartConfigurationID: Sendable, Hashable {
  let configuration: UInt64
  let history: UInt64
  let isFinished: Bool
}

/// A delayed transition waiting in a state: its delay, and the event its
/// expiry sends to the chart.
public struct ChartDelay<Event: Sendable>: Sendable {
  /// The transition's index (``Statechart/describeTransition(_:)``).
  public let transition: Int
  /// How long the state waits.
  public let delay: Duration
  /// Which entry of its state the delay belongs to: a new entry starts
  /// the delay again.
  public let entry: UInt32
  /// The event the chart's feedback sends when the delay expires.
  public let expiry: ChartEvent<Event>
}

extension ChartSnapshot {
  /// The active states and history, without the context.
  public var configurationID: ChartConfigurationID {
    ChartConfigurationID(configuration: configuration, history: history, isFinished: isFinished)
  }
}

extension Statechart {
  /// How many transitions the chart declares.
  public var transitionCount: Int { transitions.count }

  /// The transition at `index` as the diagrams write it, with its source:
  /// `playing --pause--> paused`, `visible --after 3.0 seconds--> hidden`.
  public func describeTransition(_ index: Int) -> String {
    let transition = transitions[index]
    let target = transition.target >= 0 ? nodes[transition.target].id : nodes[transition.source].id
    return "\(nodes[transition.source].id) --\(transition.label)--> \(target)"
  }

  /// The same chart, calling `observer` with the index of each transition
  /// it takes, in the reducer (the testing kit records coverage with it).
  ///
  /// ```swift
  /// let counted = chart.observingTransitions { index in taken.insert(index) }
  /// ```
  public func observingTransitions(_ observer: @escaping @Sendable (Int) -> Void) -> Statechart {
    var copy = self
    let previous = transitionObserver
    copy.transitionObserver = { index in
      previous?(index)
      observer(index)
    }
    return copy
  }

  /// The delayed transitions whose state is active in `state`, in document
  /// order, with the event their expiry sends.
  public func pendingDelays(in state: ChartSnapshot<Context>) -> [ChartDelay<Event>] {
    delayed.compactMap { index in
      let transition = transitions[index]
      guard case .after(let delay) = transition.trigger, state.isActive(index: transition.source) else {
        return nil
      }
      return ChartDelay(
        transition: index, delay: delay, entry: state.entries[transition.source],
        expiry: .timeout(transition: index, entry: state.entries[transition.source]))
    }
  }

  /// Every state's id, in document order (the chart's root first).
  public var stateIDs: [String] { nodes.map(\.id) }
}
