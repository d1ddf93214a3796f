/// The runtime of a feedback lifted by id through a ``LeafPath``: one
/// tracker per child, fed the children its parent's events wrote, read from
/// the ``TrackedDictionary``'s log.
///
/// Its memory is its own stored properties, and each state reaches it as a
/// pointer to the children, not a copy: the handler built where the types
/// are concrete calls ``onChildren(_:)`` without retaining the runtime, the
/// dictionary or a tracker (the children-by-id benchmark in BENCHMARKS.md: retains and releases were
/// a quarter of an event). One child written in place since the last state,
/// the case of one event for one child, costs one look-up: its tracker's;
/// the child is read where the write left it.
///
/// Its table of effects is keyed by `Keying`: by child for the kinds with
/// one effect per child (``ByChild``), by child and request for a requests
/// feedback (``ByChildRequest``). An event feedback's logic is also asked
/// after each event for a child (``onEvent(_:of:_:logic:)``).
@usableFromInline
final class ByIDLeafRuntime<
  Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable, Child: Sendable, Keying: ByIDKeying
>: KeyedRuntime<Parent, ParentEvent, Keying.Key, Never> where Keying.ID == ID {
  /// Each child's memory, retained once by this table (see `deinit`), so
  /// that using one retains nothing.
  @exclusivity(unchecked) @usableFromInline var trackers: [ID: Unmanaged<LeafMemory>] = [:]
  /// How many children appeared so far: the order their effects are cancelled in.
  @exclusivity(unchecked) @usableFromInline var appeared: UInt64 = 0
  @exclusivity(unchecked) @usableFromInline var cursor = ChangeCursor()
  /// Child memories by where their child's state is in the dictionary's
  /// buffer (`TrackedStorage.lastWriteAddress`), so that the one child an
  /// event wrote finds its memory without a second hash of its id (the children-by-id benchmark in
  /// BENCHMARKS.md: the id was hashed by the reducer's look-up and again by
  /// this runtime's). The dictionary keeps its values in one buffer, a slot
  /// per bucket; the slot's address divided by the value's stride, masked
  /// to a power of two at least the number of buckets, numbers the buckets
  /// without collision. An entry is only a guess: it is used when its id
  /// is the written child's id, else the id is looked up and the entry
  /// replaced. It holds the memory unretained (`trackers` retains it): a
  /// memory is in one entry at most, the one its `recentSlot` names, and
  /// clears it when it moves to another (`remember`) or goes (`feed`), so
  /// that every entry's memory is alive and is `trackers[id]`.
  @exclusivity(unchecked) @usableFromInline var recent: [RecentTracker] = []
  /// The feedback's logic, shared by the children, and a new child's memory.
  @usableFromInline let logic: LeafLogic
  @usableFromInline let makeMemory: @Sendable () -> LeafMemory
  /// Where a child's feedback state is inside the child's: the leaf path's
  /// offset and the optionals on the way.
  @usableFromInline let offset: Int
  @usableFromInline let presence: [PresenceCheck]
  /// The effect in a tracker's box, as the parent's events of child `id`.
  @usableFromInline let effect: @Sendable (ID, EffectTrigger) -> Effect<ParentEvent>
  /// Whether `logic` acts on its state's absence only (see `LeafPath`): a
  /// child written in place, with no optional on the way, asks it nothing.
  @usableFromInline let skipsWrites: Bool

  @inlinable
  init(
    id: FeedbackID, core: SystemCore<Parent, ParentEvent>, logic: @escaping LeafLogic,
    makeMemory: @escaping @Sendable () -> LeafMemory, offset: Int, presence: [PresenceCheck],
    effect: @escaping @Sendable (ID, EffectTrigger) -> Effect<ParentEvent>, presenceOnly: Bool = false
  ) {
    self.skipsWrites = presenceOnly && presence.isEmpty
    self.logic = logic
    self.makeMemory = makeMemory
    self.offset = offset
    self.presence = presence
    self.effect = effect
    super.init(id: id, core: core)
  }

  deinit {
    for tracker in trackers.values { tracker.release() }
  }

  /// A new state's children.
  @inlinable
  final func onChildren(_ children: UnsafePointer<TrackedDictionary<ID, Child>>) {
    // The state that `children` points into keeps the storage alive for
    // the whole call: holding it strongly too cost a retain and a release.
    Unmanaged.passUnretained(children.pointee.storage)._withUnsafeGuaranteedRef { onChildren(children, storage: $0) }
  }

  @inlinable
  final func onChildren(
    _ children: UnsafePointer<TrackedDictionary<ID, Child>>, storage: TrackedStorage<[ID: Child], ID>
  ) {
    let seen = cursor
    let now = storage.log.cursor
    guard seen.identity != now.identity || seen.generation != now.generation else { return }
    cursor = now
    if seen.identity == now.identity, now.generation &- seen.generation == 1,
      storage.lastWriteGeneration == now.generation, let index = storage.lastWrite
    {
      // The one change since the last state was a child changed in place:
      // the child, and its id, are where that write left them. A logic
      // that acts on absence only has nothing to do for it: the child was
      // there at the last state (a write in place adds none), and is still.
      if skipsWrites { return }
      let (id, child) = storage.withContentsInPlace { $0.pointee[index] }
      // The pointer lives for the closure only, as the logic reads it.
      withUnsafePointer(to: child) { feedWritten(id, UnsafeRawPointer($0), storage: storage) }
      return
    }
    switch storage.log.changes(since: seen) {
    case .unchanged:
      return
    case .changed(let touched):
      // A tracker fed the same child twice keeps its effect: repeated ids
      // need no de-duplication. A child's logic may stop the system (a
      // query that calls `stop()`): the pass ends before the next child, as
      // the fan-out ends it before the next feedback.
      for id in touched where !core.isStopping { reconcile(id, children) }
    case .unknown:
      let contents = storage.contents
      let gone = trackers.filter { contents[$0.key] == nil }
      // Unretained reads: `trackers` still retains every memory here.
      let inOrder = gone.sorted { $0.value.takeUnretainedValue().appeared < $1.value.takeUnretainedValue().appeared }
      for (id, _) in inOrder where !core.isStopping { reconcile(id, children) }
      for id in contents.keys where !core.isStopping { reconcile(id, children) }
    }
  }

  /// Whether the children at `children` are the ones of the last state
  /// (no change logged since). A lifted by-id path (ByIDPath.swift) runs
  /// this runtime's code unspecialized, where ``onChildren(_:)`` looks up
  /// the metadata of its children's types on entry; it asks this first,
  /// which needs none, so that a state that left the children alone costs
  /// a comparison.
  @inlinable
  final func sawChildren(_ children: UnsafePointer<TrackedDictionary<ID, Child>>) -> Bool {
    // Unretained: the state `children` points into holds the storage.
    unowned(unsafe) let storage = children.pointee.storage
    let (seen, now) = (cursor, storage.log.cursor)
    return seen.identity == now.identity && seen.generation == now.generation
  }

  /// The children's container went (an optional on the way to it is
  /// `nil`): every child went with it, in the order they appeared, and the
  /// next children seen are read whole.
  @inlinable
  final func onChildrenGone() {
    cursor = ChangeCursor()
    guard !trackers.isEmpty else { return }
    // Unretained reads: `trackers` still retains every memory here.
    let inOrder = trackers.sorted {
      $0.value.takeUnretainedValue().appeared < $1.value.takeUnretainedValue().appeared
    }
    for (id, _) in inOrder where !core.isStopping { feed(id, nil) }
  }

  /// Feeds child `id`'s state (or its absence) to its tracker, and acts on
  /// the step it returns.
  @inlinable
  final func reconcile(_ id: ID, _ children: UnsafePointer<TrackedDictionary<ID, Child>>) {
    // Unretained: the state `children` points into holds the storage for
    // the whole call (see `receive(_:)`).
    unowned(unsafe) let storage = children.pointee.storage
    let contents = storage.contents
    if let index = contents.index(forKey: id) {
      // The pointer lives for the closure only, as the logic reads it.
      withUnsafePointer(to: contents.values[index]) { feed(id, UnsafeRawPointer($0)) }
    } else {
      feed(id, nil)
    }
  }

  /// Child `id`'s state, just written in place by the one change
  /// `storage` logged since the last state, through the logic: its memory
  /// found in `recent` when the entry there is the child's, else looked up
  /// and remembered there.
  @inlinable
  final func feedWritten(_ id: ID, _ child: UnsafeRawPointer, storage: TrackedStorage<[ID: Child], ID>) {
    let address = storage.lastWriteAddress
    if !recent.isEmpty {
      let slot = Self.slot(of: address, among: recent.count)
      if let memory = recent[slot].memory, recent[slot].id == id {
        // An entry's memory is alive: `trackers` retains it (see `recent`).
        memory._withUnsafeGuaranteedRef { act(on: logic(locate(child), $0), for: id, memory: $0) }
        return
      }
    }
    feed(id, child)
    guard address != 0, let memory = trackers[id] else { return }
    remember(id, memory, address: address, capacity: storage.withContentsInPlace { $0.pointee.capacity })
  }

  /// The entry of a table of `count` entries (a power of two) for the child
  /// whose state is at `address`.
  @inlinable
  static func slot(of address: UInt, among count: Int) -> Int {
    DictionaryLayout.slot(of: address, stride: MemoryLayout<Child>.stride, among: count)
  }

  /// Puts `memory` in `recent` at `address`'s entry, first sizing the table
  /// for a dictionary of `capacity` if it has fewer entries than buckets.
  @inlinable
  final func remember(_ id: ID, _ memory: Unmanaged<LeafMemory>, address: UInt, capacity: Int) {
    assert(DictionaryLayout.holds, DictionaryLayout.message)
    let buckets = DictionaryLayout.buckets(forCapacity: capacity)
    if recent.count < buckets {
      // An entry's memory is alive: `trackers` retains it (see `recent`).
      for entry in recent { entry.memory?._withUnsafeGuaranteedRef { $0.recentSlot = -1 } }
      recent = [RecentTracker](repeating: RecentTracker(), count: buckets)
    }
    let slot = Self.slot(of: address, among: recent.count)
    // One entry per memory: the child may have moved (its buffer copied,
    // or shifted by a removal), and an entry left at its old place would
    // outlive the memory when the child goes. `memory` is `trackers[id]`,
    // retained there, as is every entry's.
    memory._withUnsafeGuaranteedRef {
      if $0.recentSlot >= 0 { recent[$0.recentSlot] = RecentTracker() }
    }
    recent[slot].memory?._withUnsafeGuaranteedRef { $0.recentSlot = -1 }
    recent[slot] = RecentTracker(id: id, memory: memory)
    memory._withUnsafeGuaranteedRef { $0.recentSlot = slot }
  }

  /// An entry of `recent`: a child's id and its memory, or none.
  @usableFromInline
  struct RecentTracker {
    @usableFromInline var id: ID?
    @usableFromInline var memory: Unmanaged<LeafMemory>?

    @inlinable
    init(id: ID? = nil, memory: Unmanaged<LeafMemory>? = nil) {
      self.id = id
      self.memory = memory
    }
  }

  /// Child `id`'s state (`nil`: it is gone) through the logic, with the
  /// child's memory, made when the child first appears and dropped when it
  /// goes; then what the logic says, done.
  @inlinable
  final func feed(_ id: ID, _ child: UnsafeRawPointer?) {
    if let trackerIndex = trackers.index(forKey: id) {
      let memory = trackers.values[trackerIndex]
      guard let child else {
        trackers.remove(at: trackerIndex)
        // Removed from `trackers` but not released yet: the `defer` below
        // releases the table's reference after the last use.
        memory._withUnsafeGuaranteedRef {
          if $0.recentSlot >= 0 { recent[$0.recentSlot] = RecentTracker() }
        }
        defer { memory.release() }
        memory._withUnsafeGuaranteedRef { act(on: logic(nil, $0), for: id, memory: $0) }
        return
      }
      // Retained by `trackers`, which keeps it while the child is there.
      memory._withUnsafeGuaranteedRef { act(on: logic(locate(child), $0), for: id, memory: $0) }
      return
    }
    guard let child else { return }
    appeared &+= 1
    // The table's one reference, released when the child goes or in `deinit`.
    let memory = Unmanaged.passRetained(makeMemory())
    trackers[id] = memory
    memory._withUnsafeGuaranteedRef {
      $0.appeared = appeared
      act(on: logic(locate(child), $0), for: id, memory: $0)
    }
  }

  /// Where the feedback's state is inside a child's, or `nil` if an
  /// optional on the way is `nil`. The offsets are stored properties'
  /// (`MemoryLayout.offset(of:)` gave them, see LeafPath), so each sum is
  /// inside the child the pointer points to.
  @inlinable
  final func locate(_ child: UnsafeRawPointer) -> UnsafeRawPointer? {
    if !presence.isEmpty {
      for check in presence where !check.isPresent(child + check.offset) { return nil }
    }
    return child + offset
  }

  /// Does what child `id`'s logic said. The table of effects holds an
  /// entry for the child only while `memory.hasEntry`: an effect that does
  /// nothing is numbered and reported as the table would (started and
  /// finished at once) without an entry to add and then remove, two hashes
  /// of the id that the children-by-id benchmark paid every eighth event.
  @inlinable
  final func act(on step: LeafStep, for id: ID, memory: LeafMemory) {
    switch step {
    case .keep:
      return
    case .cancel:
      removeEntry(id, memory)
    case .restart(let box):
      removeEntry(id, memory)
      table.start(Keying.key(id), effect: effect(id, box))
      memory.hasEntry = true
    case .restartDoingNothing:
      removeEntry(id, memory)
      let number = table.book.nextNumber()
      guard core.isMonitored else { return }
      let started = table.effectID(number, key: Keying.key(id))
      core.monitor?.report(.effectStarted(started))
      core.monitor?.report(.effectFinished(started))
    case .requestsChanged:
      // The memory of a requests path (the only logic that says this).
      let pending = unsafeDowncast(memory, to: PendingRequests.self)
      for serial in pending.cancels { table.cancel(Keying.key(id, serial: serial, trigger: nil)) }
      for (serial, box) in pending.starts {
        table.start(Keying.key(id, serial: serial, trigger: box), effect: effect(id, box))
      }
      pending.cancels.removeAll(keepingCapacity: true)
      pending.starts.removeAll(keepingCapacity: true)
    }
  }

  /// Cancels child `id`'s effect, if the table holds one (running, or
  /// finished on its own and kept until now).
  @inlinable
  final func removeEntry(_ id: ID, _ memory: LeafMemory) {
    guard memory.hasEntry else { return }
    memory.hasEntry = false
    table.cancel(Keying.key(id))
  }

  /// Child `id`'s event (a pointer to the path's event), after the state
  /// it produced reached ``onChildren(_:)``: the event logic `eventLogic`
  /// (the handler's, which holds it: a property read here cost a retain
  /// and a release per event) is asked with it and the child's state, and
  /// its step done. A child that is not
  /// there (the event removed it, or it never was) is asked nothing, as
  /// the recipe's path did. The child is found where the state's one
  /// write left it when that write was its own, without a look-up.
  @inlinable
  final func onEvent(
    _ event: UnsafeRawPointer, of id: ID, _ children: UnsafePointer<TrackedDictionary<ID, Child>>,
    logic eventLogic: LeafEventLogic
  ) {
    // The state that `children` points into keeps the storage alive for
    // the whole call (see `onChildren(_:)`): an `unowned(unsafe)` copy of
    // it cost a retain and a release per event.
    Unmanaged.passUnretained(children.pointee.storage)._withUnsafeGuaranteedRef {
      onEvent(event, of: id, storage: $0, logic: eventLogic)
    }
  }

  /// ``onEvent(_:of:_:logic:)`` with the children's storage, which the
  /// caller guarantees alive.
  @inlinable
  final func onEvent(
    _ event: UnsafeRawPointer, of id: ID, storage: TrackedStorage<[ID: Child], ID>, logic eventLogic: LeafEventLogic
  ) {
    if storage.lastWriteGeneration == storage.log.generation, let index = storage.lastWrite {
      let written = storage.withContentsInPlace { $0.pointee[index] }
      if written.key == id {
        // The pointer lives for the closure only, as the logic reads it.
        let step = withUnsafePointer(to: written.value) { eventLogic(event, locate(UnsafeRawPointer($0))) }
        if case .keep = step { return }
        actOnEvent(step, for: id, address: storage.lastWriteAddress)
        return
      }
    }
    let contents = storage.contents
    guard let index = contents.index(forKey: id) else { return }
    // The pointer lives for the closure only, as the logic reads it.
    let step = withUnsafePointer(to: contents.values[index]) { eventLogic(event, locate(UnsafeRawPointer($0))) }
    if case .keep = step { return }
    actOnEvent(step, for: id, address: 0)
  }

  /// Does an event's step for child `id`, with its memory: the entry of
  /// `recent` at `address` when it is the child's, else `trackers[id]`.
  /// The state reached ``onChildren(_:)`` first (the loop hands a state to
  /// every feedback before any event), so a child that is there has its
  /// memory.
  @inlinable
  final func actOnEvent(_ step: LeafStep, for id: ID, address: UInt) {
    if address != 0, !recent.isEmpty {
      let slot = Self.slot(of: address, among: recent.count)
      if let memory = recent[slot].memory, recent[slot].id == id {
        // An entry's memory is alive: `trackers` retains it (see `recent`).
        memory._withUnsafeGuaranteedRef { act(on: step, for: id, memory: $0) }
        return
      }
    }
    guard let memory = trackers[id] else { return }
    // Retained by `trackers`, which keeps it while the child is there.
    memory._withUnsafeGuaranteedRef { act(on: step, for: id, memory: $0) }
  }
}

/// How a by-id runtime keys its table of effects: by child, or by child and
/// request. Static, so that the runtime's calls are specialized with it;
/// its metatype is sendable because the feedback's `@Sendable` closures
/// capture it.
@usableFromInline
protocol ByIDKeying: SendableMetatype {
  associatedtype ID: Hashable & Sendable
  associatedtype Key: Hashable & Sendable
  /// The key of child `id`'s one effect.
  static func key(_ id: ID) -> Key
  /// The key of child `id`'s request numbered `serial`, described by
  /// `trigger` when a monitor asks (`nil`: a key to cancel by).
  static func key(_ id: ID, serial: UInt64, trigger: EffectTrigger?) -> Key
}

/// One effect per child, keyed by its id (the query, predicate and event
/// feedbacks): its trigger, as monitors see it, is the id.
@usableFromInline
enum ByChild<ID: Hashable & Sendable>: ByIDKeying {
  @inlinable
  static func key(_ id: ID) -> ID { id }

  @inlinable
  static func key(_ id: ID, serial: UInt64, trigger: EffectTrigger?) -> ID { id }
}

/// One effect per request of each child (the requests feedback), keyed by
/// the child's id and the request's serial: its trigger, as monitors see
/// it, is `id: request`, as the recipe's key (`ChildRequest`) described it.
@usableFromInline
enum ByChildRequest<ID: Hashable & Sendable>: ByIDKeying {
  @inlinable
  static func key(_ id: ID) -> ChildRequestKey<ID> { ChildRequestKey(id: id, serial: 0, trigger: nil) }

  @inlinable
  static func key(_ id: ID, serial: UInt64, trigger: EffectTrigger?) -> ChildRequestKey<ID> {
    ChildRequestKey(id: id, serial: serial, trigger: trigger)
  }
}

/// The key of one request of one child in a by-id table: equal and hashed
/// by the child's id and the request's serial; described by the request.
@usableFromInline
struct ChildRequestKey<ID: Hashable & Sendable>: Hashable, @unchecked Sendable, CustomStringConvertible {
  // Unchecked: `trigger` is an immutable box (`DescribedEffectBox`) of a
  // `Sendable` effect and request, read only to describe the key.
  @usableFromInline let id: ID
  @usableFromInline let serial: UInt64
  @usableFromInline let trigger: EffectTrigger?

  @inlinable
  init(id: ID, serial: UInt64, trigger: EffectTrigger?) {
    self.id = id
    self.serial = serial
    self.trigger = trigger
  }

  @inlinable
  static func == (lhs: Self, rhs: Self) -> Bool { lhs.serial == rhs.serial && lhs.id == rhs.id }

  @inlinable
  func hash(into hasher: inout Hasher) {
    hasher.combine(id)
    hasher.combine(serial)
  }

  @usableFromInline
  var description: String { "\(id): \(trigger?.because ?? "")" }
}
