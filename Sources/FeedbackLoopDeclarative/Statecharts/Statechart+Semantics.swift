// The reducer of a statechart: SCXML's algorithm (W3C SCXML 1.0, appendix
// D), on 64-bit masks so that an event allocates nothing. The article
// "Statecharts" states each rule; `StatechartSemanticsTests` holds each one.

extension Statechart {
  /// The chart's first configuration: the root entered, its initial states
  /// below it entered (outermost first, running their entry actions), then
  /// the "done" events that raises taken, all before the system starts.
  ///
  /// ```swift
  /// let first = chart.initialState(context: Player())
  /// first.activeLeaves  // ["loading"]
  /// ```
  public func initialState(context: Context) -> StatechartState<Context> {
    var state = StatechartState(context: context, layout: layout)
    var enter: UInt64 = 0
    addDescendants(0, to: &enter, history: state.history)
    var pendingDone: UInt64 = 0
    enterStates(enter, event: nil, in: &state, pendingDone: &pendingDone)
    takeDoneEvents(&pendingDone, in: &state)
    return state
  }

  /// Reduces one event: a whole macrostep (run to completion). The
  /// transitions the event enables are selected, their exits, actions and
  /// entries run, then every "done" event those raised is taken, before the
  /// feedbacks see the state. An event no transition takes changes nothing.
  ///
  /// ```swift
  /// var state = chart.initialState(context: Player())
  /// chart.reduce(&state, .event(.loaded))
  /// ```
  public func reduce(_ state: inout StatechartState<Context>, _ event: ChartEvent<Event>) {
    var pendingDone: UInt64 = 0
    switch event.kind {
    case .event(let event):
      withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * 64) { buffer in
        let count = selectTransitions(in: state, into: buffer) { transition in
          guard case .event(_, let matches) = transition.trigger, matches(event) else { return false }
          return transition.condition?(state.context, event) ?? true
        }
        if count > 0 { microstep(buffer.prefix(count), event: event, in: &state, pendingDone: &pendingDone) }
      }
    case .timeout(let index, let entry):
      // A delay whose state was left (and maybe entered again) since it
      // started: its feedback cancelled it, so G4 drops this event; checked
      // here too, so that a reducer run outside a system agrees.
      let transition = transitions[index]
      guard state.isActive(index: transition.source), state.entries[transition.source] == entry,
        transition.condition?(state.context, nil) ?? true
      else { return }
      withUnsafeTemporaryAllocation(of: Int.self, capacity: 1) { buffer in
        buffer[0] = index
        microstep(buffer[...], event: nil, in: &state, pendingDone: &pendingDone)
      }
    }
    takeDoneEvents(&pendingDone, in: &state)
  }

  /// The most microsteps "done" events may chain in one macrostep: a chart
  /// whose final states re-enter one another forever stops there.
  static var microstepLimit: Int { 1_000 }

  /// Takes the raised "done" events, lowest state index (document order)
  /// first, each in a microstep of its own.
  func takeDoneEvents(_ pendingDone: inout UInt64, in state: inout StatechartState<Context>) {
    var steps = 0
    while pendingDone != 0 && steps < Self.microstepLimit {
      steps += 1
      let finished = pendingDone.trailingZeroBitCount
      pendingDone &= ~(1 << UInt64(finished))
      guard state.isActive(index: finished) else { continue }
      withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * 64) { buffer in
        let count = selectTransitions(in: state, into: buffer) { transition in
          guard case .done = transition.trigger, transition.source == finished else { return false }
          return transition.condition?(state.context, nil) ?? true
        }
        if count > 0 { microstep(buffer.prefix(count), event: nil, in: &state, pendingDone: &pendingDone) }
      }
    }
  }

  /// SCXML's selectTransitions then removeConflictingTransitions: for each
  /// active atomic state in document order, the first enabled transition of
  /// that state, else of its parent, and so on up; then, of two selected
  /// transitions that would exit a common state, the one whose source is a
  /// descendant of the other's wins, else the one selected first. Writes
  /// the selected indices at the start of `buffer` (capacity 128) and
  /// returns their count.
  func selectTransitions(
    in state: StatechartState<Context>,
    into buffer: UnsafeMutableBufferPointer<Int>,
    isEnabled: (ChartTransition<Context, Event>) -> Bool
  ) -> Int {
    var enabledCount = 0
    var atoms = state.configuration & leafMask
    while atoms != 0 {
      let atom = atoms.trailingZeroBitCount
      atoms &= atoms &- 1
      var source = atom
      var found = -1
      search: while source >= 0 {
        for index in nodes[source].transitions where isEnabled(transitions[index]) {
          found = index
          break search
        }
        source = nodes[source].parent
      }
      if found >= 0 && !buffer[0..<enabledCount].contains(found) {
        buffer[enabledCount] = found
        enabledCount += 1
      }
    }
    if enabledCount < 2 { return enabledCount }
    // The filtered list is built after the enabled one, in the same buffer.
    let filteredStart = 64
    var filteredCount = 0
    for position in 0..<enabledCount {
      let first = buffer[position]
      let firstExit = exitSet(of: first, in: state)
      var preempted = false
      var removed: UInt64 = 0
      for other in 0..<filteredCount {
        let second = buffer[filteredStart + other]
        guard firstExit & exitSet(of: second, in: state) != 0 else { continue }
        if isDescendant(transitions[first].source, of: transitions[second].source) {
          removed |= 1 << UInt64(other)  // `first` preempts `second`.
        } else {
          preempted = true
          break
        }
      }
      if preempted { continue }
      var kept = 0
      for other in 0..<filteredCount where removed & (1 << UInt64(other)) == 0 {
        buffer[filteredStart + kept] = buffer[filteredStart + other]
        kept += 1
      }
      filteredCount = kept
      buffer[filteredStart + filteredCount] = first
      filteredCount += 1
    }
    for position in 0..<filteredCount { buffer[position] = buffer[filteredStart + position] }
    return filteredCount
  }

  /// The active states a transition leaves: every active descendant of
  /// its domain; none for a targetless transition.
  @inline(__always)
  func exitSet(of index: Int, in state: StatechartState<Context>) -> UInt64 {
    let transition = transitions[index]
    guard transition.target >= 0 else { return 0 }
    return state.configuration & nodes[transition.domain].descendantMask
  }

  @inline(__always)
  func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
    nodes[ancestor].descendantMask & (1 << UInt64(state)) != 0
  }

  /// One microstep: exits (innermost first, in reverse document order),
  /// the transitions' actions (in selection order), entries (outermost
  /// first, in document order).
  func microstep(
    _ selected: Slice<UnsafeMutableBufferPointer<Int>>,
    event: Event?,
    in state: inout StatechartState<Context>,
    pendingDone: inout UInt64
  ) {
    var exit: UInt64 = 0
    for index in selected { exit |= exitSet(of: index, in: state) }
    // History remembers the configuration below each state left.
    var leaving = exit
    while leaving != 0 {
      let left = leaving.trailingZeroBitCount
      leaving &= leaving &- 1
      if nodes[left].hasHistory {
        let below = nodes[left].descendantMask
        state.history = (state.history & ~below) | (state.configuration & below)
      }
    }
    leaving = exit
    while leaving != 0 {
      let left = 63 - leaving.leadingZeroBitCount
      for action in nodes[left].exitActions { action(&state.context) }
      state.configuration &= ~(1 << UInt64(left))
      leaving &= ~(1 << UInt64(left))
    }
    for index in selected {
      transitions[index].action?(&state.context, event)
      transitionObserver?(index)
    }
    var enter: UInt64 = 0
    for index in selected {
      let transition = transitions[index]
      guard transition.target >= 0 else { continue }
      addDescendants(transition.target, to: &enter, history: state.history)
      addAncestors(of: transition.target, below: transition.domain, to: &enter, history: state.history)
    }
    enterStates(enter, event: event, in: &state, pendingDone: &pendingDone)
  }

  /// Enters `enter` outermost first; entering a final state raises its
  /// parent's "done" event, and its grandparent's when that is a parallel
  /// state all of whose regions are then final.
  func enterStates(
    _ enter: UInt64, event: Event?, in state: inout StatechartState<Context>, pendingDone: inout UInt64
  ) {
    var entering = enter
    while entering != 0 {
      let entered = entering.trailingZeroBitCount
      entering &= entering &- 1
      state.configuration |= 1 << UInt64(entered)
      state.entries[entered] &+= 1
      for action in nodes[entered].entryActions { action(&state.context) }
      guard nodes[entered].kind == .final else { continue }
      let parent = nodes[entered].parent
      if parent == 0 {
        state.isFinished = true
        continue
      }
      pendingDone |= 1 << UInt64(parent)
      let grandparent = nodes[parent].parent
      if grandparent >= 0 && nodes[grandparent].kind == .parallel && isInFinalState(grandparent, state) {
        pendingDone |= 1 << UInt64(grandparent)
      }
    }
  }

  /// SCXML's isInFinalState.
  func isInFinalState(_ index: Int, _ state: StatechartState<Context>) -> Bool {
    switch nodes[index].kind {
    case .compound: return state.configuration & nodes[index].childMask & finalMask != 0
    case .parallel:
      for child in nodes[index].children where nodes[index].childMask & (1 << UInt64(child)) != 0 {
        if !isInFinalState(child, state) { return false }
      }
      return true
    default: return false
    }
  }

  /// SCXML's addDescendantStatesToEnter.
  func addDescendants(_ index: Int, to enter: inout UInt64, history: UInt64) {
    let node = nodes[index]
    switch node.kind {
    case .history(let deep):
      let parent = node.parent
      let recorded = history & nodes[parent].descendantMask
      if recorded != 0 {
        var resumed = deep ? recorded & leafMask : recorded & nodes[parent].childMask
        while resumed != 0 {
          let child = resumed.trailingZeroBitCount
          resumed &= resumed &- 1
          addDescendants(child, to: &enter, history: history)
          addAncestors(of: child, below: parent, to: &enter, history: history)
        }
      } else if node.historyDefault >= 0 {
        addDescendants(node.historyDefault, to: &enter, history: history)
        addAncestors(of: node.historyDefault, below: parent, to: &enter, history: history)
      } else if nodes[parent].kind == .compound {
        addDescendants(nodes[parent].initial, to: &enter, history: history)
      } else {
        for child in nodes[parent].children where nodes[parent].childMask & (1 << UInt64(child)) != 0 {
          addDescendants(child, to: &enter, history: history)
        }
      }
    case .atomic, .final:
      enter |= 1 << UInt64(index)
    case .compound:
      enter |= 1 << UInt64(index)
      addDescendants(node.initial, to: &enter, history: history)
    case .parallel:
      enter |= 1 << UInt64(index)
      for child in node.children where node.childMask & (1 << UInt64(child)) != 0 {
        if enter & ((1 << UInt64(child)) | nodes[child].descendantMask) == 0 {
          addDescendants(child, to: &enter, history: history)
        }
      }
    }
  }

  /// SCXML's addAncestorStatesToEnter: the proper ancestors of `index`
  /// below `top`, and, for a parallel one, its other regions entered by
  /// default.
  func addAncestors(of index: Int, below top: Int, to enter: inout UInt64, history: UInt64) {
    var ancestor = nodes[index].parent
    while ancestor > top {
      enter |= 1 << UInt64(ancestor)
      if nodes[ancestor].kind == .parallel {
        for child in nodes[ancestor].children where nodes[ancestor].childMask & (1 << UInt64(child)) != 0 {
          if enter & ((1 << UInt64(child)) | nodes[child].descendantMask) == 0 {
            addDescendants(child, to: &enter, history: history)
          }
        }
      }
      ancestor = nodes[ancestor].parent
    }
  }
}
