// A statechart's reducer entry points: an event is first tried on the
// compiled tables (ChartTables.swift), where one plain transition taken by
// every active state is a few look-ups and two mask operations; anything
// else goes through SCXML's full selection (Statechart+Semantics.swift).
// `StatechartTablesTests` checks that the paths agree.

extension Statechart {
  /// Reduces one event: a whole macrostep (run to completion). The
  /// transitions the event enables are selected, their exits, actions and
  /// entries run, then every "done" event those raised is taken, before the
  /// feedbacks see the state. An event no transition takes changes nothing.
  ///
  /// ```swift
  /// var state = chart.initialState(context: Player())
  /// chart.reduce(&state, .event(.loaded))
  /// ```
  @inlinable
  public func reduce(_ state: inout ChartSnapshot<Context>, _ event: ChartEvent<Event>) {
    switch event.kind {
    case .event(let event):
      reduce(&state, event: event, keys: hot.usesKeyMask ? matchedKeys(event) : 0)
    case .timeout(let index, let entry):
      reduceTimeout(&state, transition: index, entry: entry)
    case .travel(let destination):
      state = Self.destination(destination)
    }
  }

  /// The state a jump sets, checked to be of this chart's context.
  @usableFromInline
  static func destination(_ destination: any Sendable) -> ChartSnapshot<Context> {
    guard let snapshot = destination as? ChartSnapshot<Context> else {
      fatalError(
        "FeedbackLoopDeclarative: a jump to a \(type(of: destination)) reached a chart whose state is a \(ChartSnapshot<Context>.self)"
      )
    }
    return snapshot
  }

  /// The keys `event` matches, each key's matcher asked.
  @inlinable
  func matchedKeys(_ event: Event) -> UInt64 {
    let hot = self.hot
    var keys: UInt64 = 0
    // Guaranteed: the box is held by `hot.owners` (ChartTables), alive as `hot` is.
    for key in 0..<hot.keyCount where hot.keyMatcher[key]._withUnsafeGuaranteedRef({ $0.matches(event) }) {
      keys |= 1 << UInt64(key)
    }
    return keys
  }

  /// A user's event's macrostep, given the keys it matches (when the
  /// chart has at most 64).
  @inlinable
  func reduce(_ state: inout ChartSnapshot<Context>, event: Event, keys: UInt64) {
    if hot.usesKeyMask {
      if keys == 0 { return }
      if keys & (keys &- 1) == 0 && takeAlone(&state, event: event, key: keys.trailingZeroBitCount) { return }
    }
    reduceBySelecting(&state, event: event, keys: keys)
  }

  /// The common case, from the compiled tables alone: an event of one key
  /// for which every active atomic state selects the same unguarded
  /// transition. Returns `false`, having changed nothing, when the event
  /// needs the full selection (a guard, or two transitions).
  @inlinable @inline(__always)
  func takeAlone(_ state: inout ChartSnapshot<Context>, event: Event, key: Int) -> Bool {
    let hot = self.hot
    var atoms = state.configuration & hot.statesHandling[key]
    if atoms == 0 { return true }
    var first = hot.uniformSelection[key]
    if first.transition == -1 {
      first = hot.selection[atoms.trailingZeroBitCount &* hot.keyCount &+ key]
      atoms &= atoms &- 1
      while atoms != 0 {
        let atom = atoms.trailingZeroBitCount
        atoms &= atoms &- 1
        if hot.selection[atom &* hot.keyCount &+ key].transition != first.transition { return false }
      }
    }
    if first.transition < 0 { return false }
    let index = Int(first.transition)
    let row = first.row
    if row.isPlain {
      state.configuration = (state.configuration & ~row.exitMask) | row.entrySet
      // Guaranteed: the box is held by `hot.owners` (ChartTables), alive as `hot` is.
      if row.hasAction { hot.code[index]._withUnsafeGuaranteedRef { $0.run(&state.context, event) } }
      transitionObserver?(index)
      return true
    }
    takeAloneSlowly(&state, event: event, transition: index)
    return true
  }

  /// One transition taken alone whose exit or entry has more to do than
  /// masks (history, actions, final states, counted entries): kept out of
  /// ``takeAlone(_:event:key:)`` so that the common case stays small.
  @inlinable @inline(never)
  func takeAloneSlowly(_ state: inout ChartSnapshot<Context>, event: Event, transition index: Int) {
    var pendingDone: UInt64 = 0
    // One slot, for the one transition written at index 0.
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 1) { buffer in
      buffer[0] = index
      microstep(buffer[...], event: event, in: &state, pendingDone: &pendingDone)
    }
    if pendingDone != 0 { takeDoneEvents(&pendingDone, in: &state) }
  }

  /// A user's event's macrostep by SCXML's full selection.
  @inlinable @inline(never)
  func reduceBySelecting(_ state: inout ChartSnapshot<Context>, event: Event, keys: UInt64) {
    var pendingDone: UInt64 = 0
    // Room enough: a chart has at most 64 states (its configuration is one word) and each selects
    // at most one transition, so the enabled list fits the first 64 slots and the filtered one the
    // next 64; the buffer checks its subscripts in debug builds.
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 2 * 64) { buffer in
      let count = selectEventTransitions(event, keys: keys, in: &state, into: buffer)
      if count > 0 { microstep(buffer.prefix(count), event: event, in: &state, pendingDone: &pendingDone) }
    }
    if pendingDone != 0 { takeDoneEvents(&pendingDone, in: &state) }
  }

  /// A delay's expiry.
  @inlinable
  func reduceTimeout(_ state: inout ChartSnapshot<Context>, transition index: Int, entry: UInt32) {
    // A delay whose state was left (and maybe entered again) since it
    // started: its feedback cancelled it, so G4 drops this event; checked
    // here too, so that a reducer run outside a system agrees.
    let hot = self.hot
    let source = hot.source[index]
    guard state.isActive(index: source), state.entries[source] == entry,
      // Guaranteed: the box is held by `hot.owners` (ChartTables), alive as `hot` is.
      !hot.hasCondition[index] || hot.code[index]._withUnsafeGuaranteedRef({ $0.isAllowed(state.context, nil) })
    else { return }
    var pendingDone: UInt64 = 0
    // One slot, for the one transition written at index 0.
    withUnsafeTemporaryAllocation(of: Int.self, capacity: 1) { buffer in
      buffer[0] = index
      microstep(buffer[...], event: nil, in: &state, pendingDone: &pendingDone)
    }
    if pendingDone != 0 { takeDoneEvents(&pendingDone, in: &state) }
  }
}

extension Statechart where Event: Equatable {
  /// Reduces one event, as the unconstrained `reduce` does, telling the
  /// declared events apart with `Event`'s own `==` in the caller's
  /// specialized code rather than by calling a matcher per declared event.
  ///
  /// ```swift
  /// var state = chart.initialState(context: Player())
  /// chart.reduce(&state, .event(.loaded))
  /// ```
  @inlinable @inline(__always)
  public func reduce(_ state: inout ChartSnapshot<Context>, _ event: ChartEvent<Event>) {
    if case .event(let event) = event.kind, hot.keysAreValues && hot.usesKeyMask {
      // One comparison per declared event at most, and the tables.
      let hot = self.hot
      var key = 0
      while key < hot.keyCount {
        if hot.keyValue[key] == event { break }
        key &+= 1
      }
      if key == hot.keyCount || takeAlone(&state, event: event, key: key) { return }
      return reduceBySelecting(&state, event: event, keys: 1 << UInt64(key))
    }
    reduceByMatchingKeys(&state, event)
  }

  /// What the `Equatable` `reduce` does when the chart has a closure key
  /// or more than 64 keys, or for a delay's expiry or a jump.
  @inlinable @inline(never)
  func reduceByMatchingKeys(_ state: inout ChartSnapshot<Context>, _ event: ChartEvent<Event>) {
    guard case .event(let event) = event.kind, hot.usesKeyMask else {
      switch event.kind {
      case .timeout(let index, let entry): reduceTimeout(&state, transition: index, entry: entry)
      case .event(let event): reduce(&state, event: event, keys: 0)
      case .travel(let destination): state = Self.destination(destination)
      }
      return
    }
    reduce(&state, event: event, keys: matchedKeys(equalTo: event))
  }

  /// The keys `event` matches: value keys by `==` (at most one when every
  /// key is a value), closure keys by their matcher.
  @inlinable @inline(__always)
  func matchedKeys(equalTo event: Event) -> UInt64 {
    let hot = self.hot
    var keys: UInt64 = 0
    for key in 0..<hot.keyCount {
      if let value = hot.keyValue[key] {
        guard value == event else { continue }
        keys |= 1 << UInt64(key)
        if hot.keysAreValues { break }
      } else if hot.keyMatcher[key]._withUnsafeGuaranteedRef({ $0.matches(event) }) {
        // (Guaranteed above: the box is held by `hot.owners`, alive as `hot` is.)
        keys |= 1 << UInt64(key)
      }
    }
    return keys
  }
}
