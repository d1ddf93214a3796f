/// A chart compiled once into the tables its reducer reads, so that an
/// event is bit operations on the configuration (one 64-bit word) and
/// look-ups in these arrays: no array, set or closure is made per event,
/// and no closure is copied (the user's code is reached through unmanaged
/// references to boxes these tables own, ``ChartTransitionCode``).
///
/// - Event keys: each distinct event a transition is declared on (by value,
///   told apart with the event's own `==`), and each closure matcher, is a
///   key; an event's keys are one 64-bit mask, so a state's candidate
///   transitions are tested with one `&` each. A chart with more than 64
///   keys calls each candidate's matcher instead.
/// - Candidates: per state, the transitions on events of that state and
///   then of each ancestor, in document order (SCXML's selection order).
/// - Entry sets: per transition, the states it enters when taken alone,
///   computed once; only a transition to a history state (which depends on
///   what was recorded) or several transitions in one microstep compute it
///   when taken.
@usableFromInline
final class ChartTables<Context: Sendable, Event: Sendable>: Sendable {
  // Per state.
  @usableFromInline let parent: [Int]
  @usableFromInline let isParallel: UInt64
  @usableFromInline let isCompound: UInt64
  @usableFromInline let isFinal: UInt64
  @usableFromInline let childMask: [UInt64]
  @usableFromInline let descendantMask: [UInt64]
  @usableFromInline let initial: [Int]
  @usableFromInline let historyDefault: [Int]
  /// -1 when the state is not a history state, 0 for shallow, 1 for deep.
  @usableFromInline let historyDepth: [Int8]
  @usableFromInline let hasHistory: UInt64
  @usableFromInline let hasEntryActions: UInt64
  @usableFromInline let hasExitActions: UInt64
  /// The states whose entries are counted: those with activities or
  /// delayed transitions, whose feedbacks are keyed by the count.
  @usableFromInline let countsEntries: UInt64
  /// The transitions declared in state `i` are
  /// `transitionList[transitionStart[i]..<transitionStart[i + 1]]`.
  @usableFromInline let transitionStart: [Int]
  @usableFromInline let transitionList: [Int]
  /// The candidates of an event in state `i`, in selection order:
  /// `candidateList[candidateStart[i]..<candidateStart[i + 1]]`.
  @usableFromInline let candidateStart: [Int]
  @usableFromInline let candidateList: [Int]
  /// The keys of state `i`'s candidates: an event none of them matches
  /// skips the state at once.
  @usableFromInline let candidateKeys: [UInt64]
  @usableFromInline let entryStart: [Int]
  @usableFromInline let entryList: [Unmanaged<ChartAction<Context>>]
  @usableFromInline let exitStart: [Int]
  @usableFromInline let exitList: [Unmanaged<ChartAction<Context>>]

  // Per transition.
  @usableFromInline let source: [Int]
  @usableFromInline let target: [Int]
  @usableFromInline let domain: [Int]
  /// 0: an event, 1: a delay, 2: done.
  @usableFromInline let triggerKind: [UInt8]
  /// The event key, -1 for a delay or a done event.
  @usableFromInline let key: [Int]
  @usableFromInline let hasCondition: [Bool]
  @usableFromInline let hasAction: [Bool]
  /// What the transition enters when it is the only one of its microstep;
  /// 0 when that is computed when taken (targetless, or to a history state).
  @usableFromInline let entrySet: [UInt64]
  @usableFromInline let code: [Unmanaged<ChartTransitionCode<Context, Event>>]
  /// What taking each transition alone does, in one row.
  @usableFromInline let rows: [ChartTransitionRow]

  // Event keys.
  @usableFromInline let keyCount: Int
  /// Whether an event's keys fit in one mask (at most 64 keys).
  @usableFromInline let usesKeyMask: Bool
  /// Whether every key is a value: an event then matches at most one.
  @usableFromInline let keysAreValues: Bool
  @usableFromInline let keyValue: [Event?]
  @usableFromInline let keyMatcher: [Unmanaged<ChartMatcher<Event>>]
  /// For state `s` and key `k`, at `s * keyCount + k`: what an event of
  /// that key selects from `s` (``ChartSelection``).
  @usableFromInline let selection: [ChartSelection]
  /// Per key, the atomic and final states with a candidate on it.
  @usableFromInline let statesHandling: [UInt64]
  /// Per key, the selection every state of `statesHandling` makes when
  /// they all make the same one (a transition of their common ancestor,
  /// say), so that any one of them active tells it; `transition` is -1
  /// when they differ.
  @usableFromInline let uniformSelection: [ChartSelection]

  /// The boxes the unmanaged references above point to, kept alive here.
  // Why the unretained references (`entryList`, `exitList`, `code`,
  // `keyMatcher`) are safe: each box is appended to `owners` in `init`
  // before its reference is taken, `owners` is a `let` never emptied, and a
  // reducer reads them only through these tables, which it holds (its
  // `hot`), so every box outlives every read. The boxes' closures are
  // `let`s: a read races with no write.
  private let owners: [any AnyObject & Sendable]

  init(nodes: [ChartNode<Context, Event>], transitions: [ChartTransition<Context, Event>]) {
    var owners: [any AnyObject & Sendable] = []
    parent = nodes.map(\.parent)
    func mask(_ test: (ChartNode<Context, Event>) -> Bool) -> UInt64 {
      var mask: UInt64 = 0
      for (index, node) in nodes.enumerated() where test(node) { mask |= 1 << UInt64(index) }
      return mask
    }
    isParallel = mask { $0.kind == .parallel }
    isCompound = mask { $0.kind == .compound }
    isFinal = mask { $0.kind == .final }
    hasHistory = mask(\.hasHistory)
    hasEntryActions = mask { !$0.entryActions.isEmpty }
    hasExitActions = mask { !$0.exitActions.isEmpty }
    var countsEntries = mask { !$0.activities.isEmpty }
    for transition in transitions {
      if case .after = transition.trigger { countsEntries |= 1 << UInt64(transition.source) }
    }
    self.countsEntries = countsEntries
    childMask = nodes.map(\.childMask)
    descendantMask = nodes.map(\.descendantMask)
    initial = nodes.map(\.initial)
    historyDefault = nodes.map(\.historyDefault)
    historyDepth = nodes.map { node in
      if case .history(let deep) = node.kind { deep ? 1 : 0 } else { -1 }
    }
    func flatten<Item>(_ lists: [[Item]]) -> (start: [Int], list: [Item]) {
      var start = [0]
      var list: [Item] = []
      for items in lists {
        list += items
        start.append(list.count)
      }
      return (start, list)
    }
    (transitionStart, transitionList) = flatten(nodes.map(\.transitions))
    func boxed(_ actions: [@Sendable (inout Context) -> Void]) -> [Unmanaged<ChartAction<Context>>] {
      actions.map { action in
        let box = ChartAction(action)
        owners.append(box)
        return Unmanaged.passUnretained(box)
      }
    }
    (entryStart, entryList) = flatten(nodes.map { boxed($0.entryActions) })
    (exitStart, exitList) = flatten(nodes.map { boxed($0.exitActions) })

    source = transitions.map(\.source)
    target = transitions.map(\.target)
    domain = transitions.map(\.domain)
    triggerKind = transitions.map { transition in
      switch transition.trigger {
      case .event: 0
      case .after: 1
      case .done: 2
      }
    }
    hasCondition = transitions.map(\.code.hasCondition)
    hasAction = transitions.map(\.code.hasAction)
    code = transitions.map { transition in
      owners.append(transition.code)
      return Unmanaged.passUnretained(transition.code)
    }

    // Keys: a value equal to an earlier key's value shares its key.
    var key: [Int] = []
    var keyValue: [Event?] = []
    var keyMatcher: [ChartMatcher<Event>] = []
    for transition in transitions {
      guard case .event(_, let matches, let value) = transition.trigger else {
        key.append(-1)
        continue
      }
      if let value,
        let existing = keyValue.indices.first(where: { keyValue[$0] != nil && keyMatcher[$0].matches(value) })
      {
        key.append(existing)
        continue
      }
      key.append(keyValue.count)
      keyValue.append(value)
      keyMatcher.append(ChartMatcher(matches))
    }
    self.key = key
    self.keyValue = keyValue
    keyCount = keyValue.count
    usesKeyMask = keyValue.count <= 64
    keysAreValues = keyValue.allSatisfy { $0 != nil }
    owners += keyMatcher as [any AnyObject & Sendable]
    self.keyMatcher = keyMatcher.map { Unmanaged.passUnretained($0) }

    var candidateLists: [[Int]] = []
    var candidateKeys: [UInt64] = []
    for state in nodes.indices {
      var candidates: [Int] = []
      var keys: UInt64 = 0
      var ancestor = state
      while ancestor >= 0 {
        for index in nodes[ancestor].transitions where key[index] >= 0 {
          candidates.append(index)
          if key[index] < 64 { keys |= 1 << UInt64(key[index]) }
        }
        ancestor = nodes[ancestor].parent
      }
      candidateLists.append(candidates)
      candidateKeys.append(keys)
    }
    (candidateStart, candidateList) = flatten(candidateLists)
    self.candidateKeys = candidateKeys
    var statesHandling = [UInt64](repeating: 0, count: keyValue.count)
    var firstCandidate = [Int32](repeating: -1, count: nodes.count * keyValue.count)
    for state in nodes.indices {
      let isLeaf = nodes[state].kind == .atomic || nodes[state].kind == .final
      for index in candidateLists[state] where firstCandidate[state * keyValue.count + key[index]] == -1 {
        firstCandidate[state * keyValue.count + key[index]] = transitions[index].code.hasCondition ? -2 : Int32(index)
        if isLeaf { statesHandling[key[index]] |= 1 << UInt64(state) }
      }
    }
    self.statesHandling = statesHandling

    // A state's default entry: itself, its initial child's (compound) or
    // every region's (parallel). A default entry never meets a history
    // state: an initial child is never one.
    func defaultEntry(_ state: Int) -> UInt64 {
      var entered: UInt64 = 1 << UInt64(state)
      switch nodes[state].kind {
      case .compound: entered |= defaultEntry(nodes[state].initial)
      case .parallel:
        for child in nodes[state].children where nodes[state].childMask & (1 << UInt64(child)) != 0 {
          entered |= defaultEntry(child)
        }
      default: break
      }
      return entered
    }
    entrySet = transitions.map { transition in
      guard transition.target >= 0 else { return 0 }
      if case .history = nodes[transition.target].kind { return 0 }
      var entered = defaultEntry(transition.target)
      var ancestor = nodes[transition.target].parent
      while ancestor > transition.domain {
        entered |= 1 << UInt64(ancestor)
        if nodes[ancestor].kind == .parallel {
          for child in nodes[ancestor].children where nodes[ancestor].childMask & (1 << UInt64(child)) != 0 {
            if entered & ((1 << UInt64(child)) | nodes[child].descendantMask) == 0 { entered |= defaultEntry(child) }
          }
        }
        ancestor = nodes[ancestor].parent
      }
      return entered
    }
    var rows: [ChartTransitionRow] = []
    for (index, transition) in transitions.enumerated() {
      let exitMask = transition.target >= 0 ? nodes[transition.domain].descendantMask : 0
      let enters = entrySet[index]
      let isPlain =
        exitMask & (hasHistory | hasExitActions) == 0
        && (transition.target < 0 || (enters != 0 && enters & (hasEntryActions | isFinal | countsEntries) == 0))
      rows.append(
        ChartTransitionRow(
          exitMask: exitMask, entrySet: enters, isPlain: isPlain, hasAction: transition.code.hasAction))
    }
    self.rows = rows
    let none = ChartTransitionRow(exitMask: 0, entrySet: 0, isPlain: false, hasAction: false)
    let selection = firstCandidate.map { candidate in
      candidate < 0
        ? ChartSelection(transition: candidate, row: none)
        : ChartSelection(transition: candidate, row: rows[Int(candidate)])
    }
    self.selection = selection
    var uniformSelection: [ChartSelection] = []
    for key in statesHandling.indices {
      var states = statesHandling[key]
      var made: ChartSelection?
      while states != 0 {
        let state = states.trailingZeroBitCount
        states &= states &- 1
        let selected = selection[state * keyValue.count + key]
        if let earlier = made, earlier.transition != selected.transition {
          made = ChartSelection(transition: -1, row: none)
          break
        }
        made = selected
      }
      uniformSelection.append(made ?? ChartSelection(transition: -1, row: none))
    }
    self.uniformSelection = uniformSelection
    self.owners = owners
  }
}

/// What an event of one key selects from one state: the first of the
/// state's candidates on that key when it has no guard, with what taking
/// it alone does, so that one look-up tells both; `transition` is -2 when
/// that candidate has a guard (evaluated when the event comes), -1 when
/// the state has no candidate on the key.
@usableFromInline
struct ChartSelection: Sendable {
  @usableFromInline let transition: Int32
  @usableFromInline let row: ChartTransitionRow
}

/// What taking one transition alone does, read in one look-up.
@usableFromInline
struct ChartTransitionRow: Sendable {
  /// The states it may exit: every descendant of its domain (0 when it is
  /// targetless).
  @usableFromInline let exitMask: UInt64
  /// The states it enters (0 when targetless or computed when taken).
  @usableFromInline let entrySet: UInt64
  /// Whether taking it alone is two mask operations and its action: no
  /// history to record, no exit or entry action, no final state, no
  /// counted entry, a target that is not a history state.
  @usableFromInline let isPlain: Bool
  @usableFromInline let hasAction: Bool
}
