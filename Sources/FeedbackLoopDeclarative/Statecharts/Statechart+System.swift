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
  /// Each system that runs these feedbacks queues its own delayed
  /// transitions: delays due at the same moment expire in the order they
  /// were started, whatever order the clock wakes their tasks in. Two
  /// systems may share one feedbacks array and one initial state, on one
  /// clock or on two.
  ///
  /// ```swift
  /// let test = TestSystem(initial: chart.initialState(context: Player()), reduce: chart.reduce,
  ///                       feedbacks: chart.feedbacks)
  /// ```
  public var feedbacks: [Feedback<ChartSnapshot<Context>, ChartEvent<Event>>] {
    var feedbacks: [Feedback<ChartSnapshot<Context>, ChartEvent<Event>>] = []
    for (index, node) in nodes.enumerated() {
      for (number, activity) in node.activities.enumerated() {
        feedbacks.append(
          Feedback.query(
            { state in
              state.isActive(index: index) ? ChartEntry(entry: state.entries[index], context: state.context) : nil
            },
            name: "\(name).\(node.id).activity\(number)"
          ) { entry in activity(entry.context).map { ChartEvent.event($0) } })
      }
    }
    // One queue per system: two systems running these feedbacks (made from
    // one initial state, say) share nothing, whatever their clocks.
    let delaysKey = ChartDelays.Key()
    for index in delayed {
      let transition = transitions[index]
      guard case .after(let delay) = transition.trigger else { continue }
      let source = transition.source
      let feedbackName =
        "\(name).\(nodes[source].id).after(\(delay))->"
        + (transition.target >= 0 ? nodes[transition.target].id : nodes[source].id)
      feedbacks.append(
        Feedback(name: feedbackName, sharingPerSystem: delaysKey, ChartDelays.init) { delays in
          Feedback.query(
            { state in
              state.isActive(index: source) ? DelayArm(entry: state.entries[source], run: state.run) : nil
            },
            name: feedbackName
          ) { arm in
            // Numbered here, on the loop's thread, as the loop starts it: the
            // order of starting is the order of expiry among equal deadlines.
            let ticket = delays.start(delay, in: arm.run)
            return .run { send in
              try await delays.expire(ticket, clock: send.clock) {
                send(.timeout(transition: index, entry: arm.entry))
              }
            }
          }
        })
    }
    return feedbacks
  }

  /// The chart as a running `System`: every guarantee, the testing kit
  /// and the monitor hook apply. `feedbacks` come after the chart's own.
  ///
  /// ```swift
  /// let player = chart.start(context: Player())
  /// player.send(.pause)
  /// ```
  public func start(
    context: Context,
    feedbacks extra: [Feedback<ChartSnapshot<Context>, ChartEvent<Event>>] = [],
    isolation: SystemIsolation = .sendingThread,
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<ChartSnapshot<Context>, ChartEvent<Event>>? = nil,
    caller: isolated (any Actor)? = #isolation
  ) -> System<ChartSnapshot<Context>, ChartEvent<Event>> {
    System(
      initial: initialState(context: context), reduce: reduce, feedbacks: feedbacks + extra,
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
