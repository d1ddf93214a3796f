import FeedbackLoop

/// The reducer of one running system, compiled from its ``Transitions``:
/// every ``From`` block built once, and its transitions sorted by the rule
/// the ``Transitions`` documentation states.
///
/// Reducing an event allocates nothing: the candidates are scanned in rank
/// order; a block's pattern is tried at most once per event, and the value
/// it extracts waits in the block's box for the transition that reads it.
@usableFromInline
final class TransitionTable<State: Sendable, Event: Sendable>: @unchecked Sendable {
  // Sendable: a table belongs to one running system (or to one call of
  // `nextState`), and only that system's reducer calls `reduce`; the core
  // runs the reducer one event at a time under the system's lock (G2), so
  // `status` and the blocks' boxes are never touched concurrently.
  //
  // Why `@inlinable`: the declarative `System { ... }` builds the table and
  // its reducer closure in the user's module, where `State` and `Event` are
  // concrete, so that the per-event scan runs specialized, with no generic
  // metadata looked up and no value witness called per event (the core's
  // hot path is inlinable for the same reason: see BENCHMARKS.md). The
  // candidates are kept as parallel arrays of what the scan reads, so that
  // it copies no `On` (three strings and three closures) per candidate.

  /// Per candidate, in rank order: its block's index.
  @usableFromInline let candidateBlocks: [Int]
  /// Per candidate: the transition's target for an event, `nil` if the
  /// event does not match.
  @usableFromInline let candidateApply: [@Sendable (Event) -> State?]
  /// Per candidate: whether it or its block has `disable` conditions.
  @usableFromInline let candidateMayBeDisabled: [Bool]
  /// Per candidate: the transition, for the conditions and the debug check.
  @usableFromInline let candidates: [On<State, Event>]
  @usableFromInline let blocks: [CompiledBlock<State, Event>]
  @usableFromInline let blockDisabled: [[@Sendable () -> Bool]]
  /// Per block, for the event being reduced: 0 not tried, 1 matched (its box
  /// holds the value), 2 not matched.
  @usableFromInline var status: [UInt8]
  @usableFromInline let unmatched: UnmatchedEventPolicy<State, Event>
  @usableFromInline let environment: SystemEnvironment?

  @inlinable
  init(
    _ transitions: Transitions<State, Event>,
    unmatched: UnmatchedEventPolicy<State, Event>,
    environment: SystemEnvironment?
  ) {
    let blocks = transitions.blocks.map { $0.compile() }
    let blockDisabled = transitions.blocks.map(\.disabled)
    var ranked: [(rank: Int, order: Int, block: Int, transition: On<State, Event>)] = []
    for (index, block) in blocks.enumerated() {
      let stateRank = transitions.blocks[index].matchesAnyState ? 2 : 0
      for transition in block.ons {
        let rank = stateRank + (transition.matchesAnyEvent ? 1 : 0)
        ranked.append((rank, ranked.count, index, transition))
      }
    }
    ranked.sort { ($0.rank, $0.order) < ($1.rank, $1.order) }
    self.blocks = blocks
    self.blockDisabled = blockDisabled
    candidateBlocks = ranked.map(\.block)
    candidateApply = ranked.map(\.transition.apply)
    candidateMayBeDisabled = ranked.map { !$0.transition.disabled.isEmpty || !blockDisabled[$0.block].isEmpty }
    candidates = ranked.map(\.transition)
    status = Array(repeating: 0, count: blocks.count)
    self.unmatched = unmatched
    self.environment = environment
  }

  /// The reducer the core runs.
  @inlinable
  func reduce(_ state: inout State, _ event: Event) {
    if let next = nextState(from: state, on: event) {
      state = next
    } else {
      reportUnmatched(state, event)
    }
  }

  @inlinable
  func nextState(from state: State, on event: Event) -> State? {
    var result: State?
    for candidate in candidateBlocks.indices {
      let block = candidateBlocks[candidate]
      if status[block] == 0 {
        status[block] = blocks[block].bind(state) ? 1 : 2
      }
      guard status[block] == 1 else { continue }
      if candidateMayBeDisabled[candidate] && isDisabled(candidate) { continue }
      if let next = candidateApply[candidate](event) {
        assert(
          candidates[candidate].targetCheck?(next) ?? true,
          "FeedbackLoopDeclarative: the transition from \(stateName(of: state)) on \(candidates[candidate].eventName) "
            + "declares the target \(candidates[candidate].targetName) but went to \(next)")
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

  @usableFromInline
  func isDisabled(_ candidate: Int) -> Bool {
    for condition in blockDisabled[candidateBlocks[candidate]] where condition() { return true }
    for condition in candidates[candidate].disabled where condition() { return true }
    return false
  }

  @usableFromInline
  func reportUnmatched(_ state: State, _ event: Event) {
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

  func log(_ state: State, _ event: Event) {
    environment?.logger.warning(
      "no transition matches the event; the state is unchanged",
      metadata: ["event": "\(event)", "state": "\(state)"])
  }
}
