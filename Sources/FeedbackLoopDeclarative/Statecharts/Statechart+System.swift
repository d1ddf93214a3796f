import FeedbackLoop

/// What an activity's or a delay's feedback watches: one entry of its
/// state. Equal while the state stays active; a new entry is a new query,
/// which cancels the effect of the old one (G4) and starts another.
struct ChartEntry<Context: Sendable>: Sendable, Equatable {
  let entry: UInt32
  let context: Context

  static func == (lhs: Self, rhs: Self) -> Bool { lhs.entry == rhs.entry }
}

extension Statechart {
  /// The chart's own feedbacks: one per activity and one per delayed
  /// transition, each a query feedback on the entry of its state, so that
  /// leaving the state cancels the effect and drops its late events (G4).
  ///
  /// ```swift
  /// let test = TestSystem(initial: chart.initialState(context: Player()), reduceInPlace: chart.reduce,
  ///                       feedbacks: chart.feedbacks)
  /// ```
  public var feedbacks: [Feedback<StatechartState<Context>, ChartEvent<Event>>] {
    var feedbacks: [Feedback<StatechartState<Context>, ChartEvent<Event>>] = []
    for (index, node) in nodes.enumerated() {
      for (number, activity) in node.activities.enumerated() {
        feedbacks.append(
          Feedback(
            lensing: { state in
              state.isActive(index: index) ? ChartEntry(entry: state.entries[index], context: state.context) : nil
            },
            name: "\(name).\(node.id).activity\(number)"
          ) { entry in activity(entry.context).map { ChartEvent.event($0) } })
      }
    }
    for index in delayed {
      let transition = transitions[index]
      guard case .after(let delay) = transition.trigger else { continue }
      let source = transition.source
      feedbacks.append(
        Feedback(
          lensing: { state in state.isActive(index: source) ? state.entries[source] : nil },
          name: "\(name).\(nodes[source].id).after(\(delay))->"
            + (transition.target >= 0 ? nodes[transition.target].id : nodes[source].id)
        ) { entry in .after(delay, send: .timeout(transition: index, entry: entry)) })
    }
    return feedbacks
  }

  /// The chart as a running `System`: every guarantee, the testing kit
  /// and the monitor hook apply. `feedbacks` come after the chart's own.
  ///
  /// ```swift
  /// let player = chart.system(context: Player())
  /// player.send(.pause)
  /// ```
  public func system(
    context: Context,
    feedbacks extra: [Feedback<StatechartState<Context>, ChartEvent<Event>>] = [],
    isolation: SystemIsolation = .own,
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<StatechartState<Context>, ChartEvent<Event>>? = nil,
    caller: isolated (any Actor)? = #isolation
  ) -> System<StatechartState<Context>, ChartEvent<Event>> {
    System(
      initial: initialState(context: context), reduceInPlace: reduce, feedbacks: feedbacks + extra,
      isolation: isolation, environment: environment, monitor: monitor, caller: caller)
  }
}

extension System {
  /// Sends a user's event to a statechart's system.
  ///
  /// ```swift
  /// player.send(.pause)   // player.send(.event(.pause))
  /// ```
  public func send<UserEvent: Sendable>(
    _ event: UserEvent, isolation caller: isolated (any Actor)? = #isolation
  ) where Event == ChartEvent<UserEvent> {
    send(ChartEvent.event(event), isolation: caller)
  }
}
