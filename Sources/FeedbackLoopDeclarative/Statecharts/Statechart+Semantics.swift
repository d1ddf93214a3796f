// The reducer of a statechart: SCXML's algorithm (W3C SCXML 1.0, appendix
// D), on 64-bit masks so that an event allocates nothing. The article
// "Statecharts" states each rule; `StatechartSemanticsTests` holds each one.
// The entry points, and the fast path through the compiled tables that
// takes an event without this selection, are in Statechart+Reduce.swift.

extension Statechart {
  /// The chart's first configuration: the root entered, its initial states
  /// below it entered (outermost first, running their entry actions), then
  /// the "done" events that raises taken, all before the system starts.
  ///
  /// ```swift
  /// let first = chart.initialState(context: Player())
  /// first.activeLeaves  // ["loading"]
  /// ```
  public func initialState(context: Context) -> ChartSnapshot<Context> {
    var state = ChartSnapshot(context: context, layout: layout)
    var enter: UInt64 = 0
    addDescendants(0, to: &enter, history: state.history)
    var pendingDone: UInt64 = 0
    enterStates(enter, event: nil, in: &state, pendingDone: &pendingDone)
    takeDoneEvents(&pendingDone, in: &state)
    return state
  }

  /// The most microsteps "done" events may chain in one macrostep: a chart
  /// whose final states re-enter one another forever stops there.
  @inlinable static var microstepLimit: Int { 1_000 }

  /// Takes the raised "done" events, lowest state index (document order)
  /// first, each in a microstep of its own.
  @inlinable
  func takeDoneEvents(_ pendingDone: inout UInt64, in state: inout ChartSnapshot<Context>) {
    var steps = 0
    while pendingDone != 0 && steps < Self.microstepLimit {
      steps += 1
      let finished = pendingDone.trailingZeroBitCount
      pendingDone &= ~(1 << UInt64(finished))
      guard state.isActive(index: finished) else { continue }
      // Room enough: a chart has at most 64 states (its configuration is one word) and each selects
      // at most one transition, so the enabled list fits the first 64 slots and the filtered one
      // the next 64; the buffer checks its subscripts in debug builds.
      withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * 64) { buffer in
        let count = selectTransitions(configuration: state.configuration, into: buffer) { index in
          guard hot.triggerKind[index] == 2, hot.source[index] == finished else { return false }
          return !hot.hasCondition[index]
            // Guaranteed: the box is held by `hot.owners` (ChartTables), alive as `hot` is.
            || hot.code[index]._withUnsafeGuaranteedRef { $0.isAllowed(state.context, nil) }
        }
        if count > 0 { microstep(buffer.prefix(count), event: nil, in: &state, pendingDone: &pendingDone) }
      }
    }
  }

  /// SCXML's selectTransitions for a user's event, over the compiled
  /// candidates: for each active atomic state in document order, its first
  /// candidate whose key the event matches and whose guard holds; then
  /// ``removeConflicts(_:configuration:buffer:)``.
  @inlinable
  func selectEventTransitions(
    _ event: Event,
    keys: UInt64,
    in state: inout ChartSnapshot<Context>,
    into buffer: UnsafeMutableBufferPointer<Int>
  ) -> Int {
    let hot = self.hot
    var enabledCount = 0
    var atoms = state.configuration & leafMask
    while atoms != 0 {
      let atom = atoms.trailingZeroBitCount
      atoms &= atoms &- 1
      if hot.usesKeyMask && hot.candidateKeys[atom] & keys == 0 { continue }
      var found = -1
      for position in hot.candidateStart[atom]..<hot.candidateStart[atom + 1] {
        let index = hot.candidateList[position]
        if hot.usesKeyMask {
          guard keys & (1 << UInt64(hot.key[index])) != 0 else { continue }
        } else {
          // Guaranteed: the box is held by `hot.owners` (ChartTables), alive as `hot` is.
          guard hot.code[index]._withUnsafeGuaranteedRef({ $0.matches?(event) ?? false }) else { continue }
        }
        if hot.hasCondition[index]
          // Guaranteed: the box is held by `hot.owners` (ChartTables), alive as `hot` is.
          && !hot.code[index]._withUnsafeGuaranteedRef({ $0.isAllowed(state.context, event) })
        {
          continue
        }
        found = index
        break
      }
      if found >= 0 && !buffer[0..<enabledCount].contains(found) {
        buffer[enabledCount] = found
        enabledCount += 1
      }
    }
    return enabledCount < 2
      ? enabledCount : removeConflicts(enabledCount, configuration: state.configuration, buffer: buffer)
  }

  /// SCXML's selectTransitions then removeConflictingTransitions, for a
  /// done event: for each active atomic state in document order, the first
  /// enabled transition of that state, else of its parent, and so on up;
  /// then ``removeConflicts(_:configuration:buffer:)``. Writes the selected indices at
  /// the start of `buffer` (capacity 128) and returns their count.
  @inlinable
  func selectTransitions(
    configuration: UInt64,
    into buffer: UnsafeMutableBufferPointer<Int>,
    isEnabled: (Int) -> Bool
  ) -> Int {
    let hot = self.hot
    var enabledCount = 0
    var atoms = configuration & leafMask
    while atoms != 0 {
      let atom = atoms.trailingZeroBitCount
      atoms &= atoms &- 1
      var source = atom
      var found = -1
      search: while source >= 0 {
        for position in hot.transitionStart[source]..<hot.transitionStart[source + 1] {
          let index = hot.transitionList[position]
          if isEnabled(index) {
            found = index
            break search
          }
        }
        source = hot.parent[source]
      }
      if found >= 0 && !buffer[0..<enabledCount].contains(found) {
        buffer[enabledCount] = found
        enabledCount += 1
      }
    }
    return enabledCount < 2 ? enabledCount : removeConflicts(enabledCount, configuration: configuration, buffer: buffer)
  }

  /// SCXML's removeConflictingTransitions over the `enabledCount`
  /// transitions at the start of `buffer`: of two that would exit a common
  /// state, the one whose source is a descendant of the other's wins, else
  /// the one selected first. Returns how many are left (at the start).
  @inlinable
  func removeConflicts(
    _ enabledCount: Int, configuration: UInt64, buffer: UnsafeMutableBufferPointer<Int>
  ) -> Int {
    let hot = self.hot
    // The filtered list is built after the enabled one, in the same buffer.
    let filteredStart = 64
    var filteredCount = 0
    for position in 0..<enabledCount {
      let first = buffer[position]
      let firstExit = exitSet(of: first, configuration: configuration)
      var preempted = false
      var removed: UInt64 = 0
      for other in 0..<filteredCount {
        let second = buffer[filteredStart + other]
        guard firstExit & exitSet(of: second, configuration: configuration) != 0 else { continue }
        if isDescendant(hot.source[first], of: hot.source[second]) {
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
  @inlinable @inline(__always)
  func exitSet(of index: Int, configuration: UInt64) -> UInt64 {
    guard hot.target[index] >= 0 else { return 0 }
    return configuration & hot.descendantMask[hot.domain[index]]
  }

  @inlinable @inline(__always)
  func isDescendant(_ state: Int, of ancestor: Int) -> Bool {
    hot.descendantMask[ancestor] & (1 << UInt64(state)) != 0
  }

  /// One microstep: exits (innermost first, in reverse document order),
  /// the transitions' actions (in selection order), entries (outermost
  /// first, in document order).
  @inlinable
  func microstep(
    _ selected: Slice<UnsafeMutableBufferPointer<Int>>,
    event: Event?,
    in state: inout ChartSnapshot<Context>,
    pendingDone: inout UInt64
  ) {
    var exit: UInt64 = 0
    for index in selected { exit |= exitSet(of: index, configuration: state.configuration) }
    // History remembers the configuration below each state left.
    let hot = self.hot
    var leaving = exit & hot.hasHistory
    while leaving != 0 {
      let left = leaving.trailingZeroBitCount
      leaving &= leaving &- 1
      let below = hot.descendantMask[left]
      state.history = (state.history & ~below) | (state.configuration & below)
    }
    if exit & hot.hasExitActions == 0 {
      state.configuration &= ~exit
    } else {
      leaving = exit
      while leaving != 0 {
        let left = 63 - leaving.leadingZeroBitCount
        for position in hot.exitStart[left]..<hot.exitStart[left + 1] {
          // Guaranteed: the box is held by `hot.owners` (ChartTables), alive as `hot` is.
          hot.exitList[position]._withUnsafeGuaranteedRef { $0.body(&state.context) }
        }
        state.configuration &= ~(1 << UInt64(left))
        leaving &= ~(1 << UInt64(left))
      }
    }
    for index in selected {
      // Guaranteed: the box is held by `hot.owners` (ChartTables), alive as `hot` is.
      if hot.hasAction[index] { hot.code[index]._withUnsafeGuaranteedRef { $0.run(&state.context, event) } }
      transitionObserver?(index)
    }
    var enter: UInt64 = 0
    if selected.count == 1 && hot.entrySet[selected[selected.startIndex]] != 0 {
      enter = hot.entrySet[selected[selected.startIndex]]
    } else {
      for index in selected {
        let target = hot.target[index]
        guard target >= 0 else { continue }
        addDescendants(target, to: &enter, history: state.history)
        addAncestors(of: target, below: hot.domain[index], to: &enter, history: state.history)
      }
    }
    if enter != 0 { enterStates(enter, event: event, in: &state, pendingDone: &pendingDone) }
  }

  /// Enters `enter` outermost first; entering a final state raises its
  /// parent's "done" event, and its grandparent's when that is a parallel
  /// state all of whose regions are then final.
  @inlinable
  func enterStates(
    _ enter: UInt64, event: Event?, in state: inout ChartSnapshot<Context>, pendingDone: inout UInt64
  ) {
    let hot = self.hot
    if enter & (hot.hasEntryActions | hot.isFinal | hot.countsEntries) == 0 {
      state.configuration |= enter
      return
    }
    var entering = enter
    while entering != 0 {
      let entered = entering.trailingZeroBitCount
      entering &= entering &- 1
      let bit: UInt64 = 1 << UInt64(entered)
      state.configuration |= bit
      if hot.countsEntries & bit != 0 { state.entries[entered] &+= 1 }
      for position in hot.entryStart[entered]..<hot.entryStart[entered + 1] {
        // Guaranteed: the box is held by `hot.owners` (ChartTables), alive as `hot` is.
        hot.entryList[position]._withUnsafeGuaranteedRef { $0.body(&state.context) }
      }
      guard hot.isFinal & bit != 0 else { continue }
      let parent = hot.parent[entered]
      if parent == 0 {
        state.finished = true
        continue
      }
      pendingDone |= 1 << UInt64(parent)
      let grandparent = hot.parent[parent]
      if grandparent >= 0 && hot.isParallel & (1 << UInt64(grandparent)) != 0
        && isInFinalState(grandparent, configuration: state.configuration)
      {
        pendingDone |= 1 << UInt64(grandparent)
      }
    }
  }

  /// SCXML's isInFinalState.
  @inlinable
  func isInFinalState(_ index: Int, configuration: UInt64) -> Bool {
    let bit: UInt64 = 1 << UInt64(index)
    if hot.isCompound & bit != 0 { return configuration & hot.childMask[index] & finalMask != 0 }
    guard hot.isParallel & bit != 0 else { return false }
    var regions = hot.childMask[index]
    while regions != 0 {
      let region = regions.trailingZeroBitCount
      regions &= regions &- 1
      if !isInFinalState(region, configuration: configuration) { return false }
    }
    return true
  }

  /// SCXML's addDescendantStatesToEnter.
  @inlinable
  func addDescendants(_ index: Int, to enter: inout UInt64, history: UInt64) {
    let hot = self.hot
    let bit: UInt64 = 1 << UInt64(index)
    let depth = hot.historyDepth[index]
    if depth >= 0 {
      let parent = hot.parent[index]
      let recorded = history & hot.descendantMask[parent]
      if recorded != 0 {
        var resumed = depth == 1 ? recorded & leafMask : recorded & hot.childMask[parent]
        while resumed != 0 {
          let child = resumed.trailingZeroBitCount
          resumed &= resumed &- 1
          addDescendants(child, to: &enter, history: history)
          addAncestors(of: child, below: parent, to: &enter, history: history)
        }
      } else if hot.historyDefault[index] >= 0 {
        addDescendants(hot.historyDefault[index], to: &enter, history: history)
        addAncestors(of: hot.historyDefault[index], below: parent, to: &enter, history: history)
      } else if hot.isCompound & (1 << UInt64(parent)) != 0 {
        addDescendants(hot.initial[parent], to: &enter, history: history)
      } else {
        var regions = hot.childMask[parent]
        while regions != 0 {
          let child = regions.trailingZeroBitCount
          regions &= regions &- 1
          addDescendants(child, to: &enter, history: history)
        }
      }
      return
    }
    enter |= bit
    if hot.isCompound & bit != 0 {
      addDescendants(hot.initial[index], to: &enter, history: history)
    } else if hot.isParallel & bit != 0 {
      addMissingRegions(of: index, to: &enter, history: history)
    }
  }

  /// Enters by default each region of the parallel state `index` that has
  /// no state to enter yet.
  @inlinable
  func addMissingRegions(of index: Int, to enter: inout UInt64, history: UInt64) {
    var regions = hot.childMask[index]
    while regions != 0 {
      let child = regions.trailingZeroBitCount
      regions &= regions &- 1
      if enter & ((1 << UInt64(child)) | hot.descendantMask[child]) == 0 {
        addDescendants(child, to: &enter, history: history)
      }
    }
  }

  /// SCXML's addAncestorStatesToEnter: the proper ancestors of `index`
  /// below `top`, and, for a parallel one, its other regions entered by
  /// default.
  @inlinable
  func addAncestors(of index: Int, below top: Int, to enter: inout UInt64, history: UInt64) {
    var ancestor = hot.parent[index]
    while ancestor > top {
      enter |= 1 << UInt64(ancestor)
      if hot.isParallel & (1 << UInt64(ancestor)) != 0 {
        addMissingRegions(of: ancestor, to: &enter, history: history)
      }
      ancestor = hot.parent[ancestor]
    }
  }
}
