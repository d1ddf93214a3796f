import FeedbackLoop

/// The reducer of one running system, compiled from its ``Transitions``:
/// every ``From`` block built once, and its transitions sorted by the rule
/// the ``Transitions`` documentation states.
///
/// Reducing an event allocates nothing: the candidates are scanned in rank
/// order; a block's pattern is tried at most once per event, and the value
/// it extracts waits in the block's box for the transition that reads it.
final class TransitionTable<State: Sendable, Event: Sendable>: @unchecked Sendable {
  // Sendable: a table belongs to one running system (or to one call of
  // `nextState`), and only that system's reducer calls `reduce`; the core
  // runs the reducer one event at a time under the system's lock (G2), so
  // `status` and the blocks' boxes are never touched concurrently.

  private struct Entry {
    let block: Int
    let transition: On<State, Event>
  }

  private let blocks: [CompiledBlock<State, Event>]
  private let blockDisabled: [[@Sendable () -> Bool]]
  private let entries: [Entry]
  /// Per block, for the event being reduced: 0 not tried, 1 matched (its box
  /// holds the value), 2 not matched.
  private var status: [UInt8]
  private let unmatched: UnmatchedEventPolicy<State, Event>
  private let environment: SystemEnvironment?

  init(
    _ transitions: Transitions<State, Event>,
    unmatched: UnmatchedEventPolicy<State, Event>,
    environment: SystemEnvironment?
  ) {
    blocks = transitions.blocks.map { $0.compile() }
    blockDisabled = transitions.blocks.map(\.disabled)
    var ranked: [(rank: Int, order: Int, entry: Entry)] = []
    for (index, block) in blocks.enumerated() {
      let stateRank = transitions.blocks[index].matchesAnyState ? 2 : 0
      for transition in block.ons {
        let rank = stateRank + (transition.matchesAnyEvent ? 1 : 0)
        ranked.append((rank, ranked.count, Entry(block: index, transition: transition)))
      }
    }
    entries = ranked.sorted { ($0.rank, $0.order) < ($1.rank, $1.order) }.map(\.entry)
    status = Array(repeating: 0, count: blocks.count)
    self.unmatched = unmatched
    self.environment = environment
  }

  /// The reducer the core runs.
  func reduce(_ state: inout State, _ event: Event) {
    if let next = nextState(from: state, on: event) {
      state = next
    } else {
      reportUnmatched(state, event)
    }
  }

  func nextState(from state: State, on event: Event) -> State? {
    var result: State?
    for entry in entries {
      let block = entry.block
      if status[block] == 0 {
        status[block] = blocks[block].bind(state) ? 1 : 2
      }
      guard status[block] == 1 else { continue }
      if isDisabled(entry) { continue }
      if let next = entry.transition.apply(event) {
        assert(
          entry.transition.targetCheck?(next) ?? true,
          "FeedbackLoopDeclarative: the transition from \(stateName(of: state)) on \(entry.transition.eventName) "
            + "declares the target \(entry.transition.targetName) but went to \(next)")
        result = next
        break
      }
    }
    for index in status.indices where status[index] != 0 {
      if status[index] == 1 { blocks[index].unbind() }
      status[index] = 0
    }
    return result
  }

  private func isDisabled(_ entry: Entry) -> Bool {
    for condition in blockDisabled[entry.block] where condition() { return true }
    for condition in entry.transition.disabled where condition() { return true }
    return false
  }

  private func reportUnmatched(_ state: State, _ event: Event) {
    switch unmatched.action {
    case .keep:
      return
    case .call(let handler):
      handler(state, event)
    case .log:
      log(state, event)
    case .fail:
      assertionFailure("FeedbackLoopDeclarative: no transition for \(event) in \(state)")
      log(state, event)
    }
  }

  private func log(_ state: State, _ event: Event) {
    environment?.logger.warning(
      "no transition matches the event; the state is unchanged",
      metadata: ["event": "\(event)", "state": "\(state)"])
  }
}
