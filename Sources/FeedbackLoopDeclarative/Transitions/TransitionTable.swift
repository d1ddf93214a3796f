import FeedbackLoop

/// The reducer of one running system, compiled from its ``Transitions``:
/// every ``From`` block built once, and its transitions sorted by the rule
/// the ``Transitions`` documentation states.
///
/// Reducing an event allocates nothing: the candidates are tried in rank
/// order; a block's pattern is tried at most once per event, and the value
/// it extracts waits in the block's box for the transition that reads it.
@usableFromInline
final class TransitionTable<State: Sendable, Event: Sendable>: @unchecked Sendable {
  // Sendable: a table belongs to one running system (or to one call of
  // `nextState`), and only that system's reducer calls `reduce`; the core
  // runs the reducer one event at a time, on the thread that owns the loop
  // (G2), so `blockStatus` and the blocks' boxes are never touched
  // concurrently.
  //
  // Why `@inlinable`: the declarative `System { ... }` builds the table and
  // its reducer closure in the user's module, where `State` and `Event` are
  // concrete, so that reducing runs specialized, with no generic metadata
  // looked up per event (the core's hot path is inlinable for the same
  // reason, see BENCHMARKS.md).

  /// The transitions in rank order. They hold the closures the reducer
  /// calls, and this array keeps them alive.
  @usableFromInline let ranked: [RankedTransition<State, Event>]
  /// The first of `ranked`, linked to the next: walked without retaining.
  // Unretained is safe: `ranked` holds every transition strongly, it is a
  // `let`, and the table outlives each walk (the reducer runs on the table).
  @usableFromInline let first: Unmanaged<RankedTransition<State, Event>>?
  /// Per block, for the event being reduced: 0 not tried, 1 matched (its box
  /// holds the value), 2 not matched. Raw memory rather than an array, so
  /// that writing it costs no uniqueness or exclusivity check.
  // Safe: allocated and initialized for `max(blocks.count, 1)` bytes in
  // `init` and freed only in `deinit`; indexed only by a transition's
  // `blockIndex`, which is `< blocks.count`; touched by one reducer call at
  // a time (see the Sendable note above).
  @usableFromInline let blockStatus: UnsafeMutablePointer<UInt8>
  @usableFromInline let unmatched: UnmatchedEventPolicy<State, Event>
  @usableFromInline let environment: SystemEnvironment?

  @inlinable
  init(
    _ transitions: Transitions<State, Event>,
    unmatched: UnmatchedEventPolicy<State, Event>,
    environment: SystemEnvironment?
  ) {
    var ranked: [(rank: Int, order: Int, block: Int, transition: On<State, Event>)] = []
    let blocks = transitions.blocks.map { $0.compile() }
    for (index, block) in blocks.enumerated() {
      let stateRank = transitions.blocks[index].matchesAnyState ? 2 : 0
      for transition in block.ons {
        let rank = stateRank + (transition.matchesAnyEvent ? 1 : 0)
        ranked.append((rank, ranked.count, index, transition))
      }
    }
    ranked.sort { ($0.rank, $0.order) < ($1.rank, $1.order) }
    var linked: [RankedTransition<State, Event>] = []
    for candidate in ranked.reversed() {
      linked.append(
        RankedTransition(
          candidate.transition, block: blocks[candidate.block], blockIndex: candidate.block,
          blockDisabled: transitions.blocks[candidate.block].disabled, next: linked.last))
    }
    self.ranked = linked.reversed()
    first = self.ranked.first.map(Unmanaged.passUnretained)
    blockStatus = .allocate(capacity: max(blocks.count, 1))
    blockStatus.initialize(repeating: 0, count: max(blocks.count, 1))
    self.unmatched = unmatched
    self.environment = environment
  }

  deinit {
    blockStatus.deallocate()
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
    var tried = 0
    var candidate = first
    while let current = candidate {
      tried += 1
      // Guaranteed: `ranked`, a `let` of this table, holds `current` alive
      // across the call.
      (result, candidate) = current._withUnsafeGuaranteedRef {
        ($0.target(from: state, on: event, blockStatus: blockStatus), $0.next)
      }
      if result != nil { break }
    }
    // Empty the boxes of the blocks tried, and forget which matched.
    candidate = first
    for _ in 0..<tried {
      // Guaranteed, as above: `ranked` keeps every link alive.
      candidate = candidate?._withUnsafeGuaranteedRef {
        $0.reset(blockStatus)
        return $0.next
      }
    }
    return result
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

/// One transition of a ``TransitionTable``, linked to the next in rank
/// order.
///
/// The reducer walks the links with `Unmanaged`, and calls the closures,
/// which are `let` properties, on a reference it does not retain: an array
/// element or a strong reference in a variable would be retained and
/// released for each transition tried, which costs more than the rest of
/// the walk. The table's `ranked` array keeps every transition alive for
/// as long as the reducer can run.
@usableFromInline
final class RankedTransition<State: Sendable, Event: Sendable> {
  @usableFromInline let transition: On<State, Event>
  /// The block's pattern: extracts the matched value into the block's box.
  @usableFromInline let bind: (State) -> Bool
  /// Empties the block's box.
  @usableFromInline let unbind: () -> Void
  @usableFromInline let blockIndex: Int
  /// The `disable` conditions of the block, then of the transition.
  @usableFromInline let disabled: [@Sendable () -> Bool]
  /// The next transition in rank order, kept alive by the table.
  // Unretained is safe: the table's `ranked` array holds the next link
  // strongly for as long as this one can be reached (the table's life).
  @usableFromInline let next: Unmanaged<RankedTransition>?

  @inlinable
  init(
    _ transition: On<State, Event>,
    block: CompiledBlock<State, Event>,
    blockIndex: Int,
    blockDisabled: [@Sendable () -> Bool],
    next: RankedTransition?
  ) {
    self.transition = transition
    self.bind = block.bind
    self.unbind = block.unbind
    self.blockIndex = blockIndex
    self.disabled = blockDisabled + transition.disabled
    self.next = next.map(Unmanaged.passUnretained)
  }

  /// The target of this transition, or `nil` if it does not apply; binds
  /// the block's value first if no transition before it did.
  /// `blockStatus` is the table's: `blockIndex` is within it (see
  /// `TransitionTable.blockStatus`).
  @inlinable
  func target(from state: State, on event: Event, blockStatus: UnsafeMutablePointer<UInt8>) -> State? {
    if blockStatus[blockIndex] == 0 {
      blockStatus[blockIndex] = bind(state) ? 1 : 2
    }
    guard blockStatus[blockIndex] == 1, disabled.isEmpty || !isDisabled,
      let target = transition.apply(event)
    else { return nil }
    assert(
      transition.targetCheck?(target) ?? true,
      "FeedbackLoopDeclarative: the transition from \(stateName(of: state)) on \(transition.eventName) "
        + "declares the target \(transition.targetName) but went to \(target)")
    return target
  }

  /// Empties the block's box if it holds a value, and marks it untried.
  @inlinable
  func reset(_ blockStatus: UnsafeMutablePointer<UInt8>) {
    if blockStatus[blockIndex] == 1 { unbind() }
    blockStatus[blockIndex] = 0
  }

  @usableFromInline
  var isDisabled: Bool {
    for condition in disabled where condition() { return true }
    return false
  }
}
