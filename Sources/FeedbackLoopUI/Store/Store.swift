import FeedbackLoop
import Observation

/// A running system, held for a user interface: an `@Observable` object on
/// the main actor whose state views read synchronously, and which they send
/// events to.
///
/// A store is what ReactiveFeedback's `Property(initial:reduce:feedbacks:)`
/// and Feedbacks' `UISystem` were: the loop's state as something a view
/// observes. It runs a `System` of isolation
/// `SystemIsolation.mainActor`, so that:
///
/// - ``send(_:)`` made on the main actor has reduced the
///   event, and the store holds the new state, by the time it returns: no
///   hop between a tap and its state (G10);
/// - only what a view reads re-renders it: ``state`` notifies its readers
///   when the state changes (not when an event leaves it equal, for an
///   `Equatable` state), a member read through the store (`store.count`)
///   notifies only when that member changes, and ``isStopped`` only when the
///   system stops;
/// - a view can read a projection of the state (``project(_:)``, the view
///   state of Feedbacks' `viewStateFactory`), or a child store scoped to a
///   part of the state and a subset of the events
///   (``scope(state:event:)-(KeyPath<State,ChildState>,_)``).
///
/// ```swift
/// struct CounterView: View {
///   @State private var store = Store(
///     initial: Counter.State(), reduce: Counter.reduce, feedbacks: Counter.feedbacks)
///
///   var body: some View {
///     Stepper("\(store.count)") {
///       store.send(.increment)
///     } onDecrement: {
///       store.send(.decrement)
///     }
///   }
/// }
/// ```
///
/// The store owns its system: releasing the store (and every store scoped
/// from it) stops the system, which cancels every effect and input (G9).
@MainActor
@dynamicMemberLookup
public final class Store<State, Event> {
  // The store conforms to `Observable` by hand, as the `@Observable` macro
  // would, so that its per-event path can be `@inlinable` and specialized
  // in the app for its state (the macro's registrar and helpers are not
  // visible to inlinable code).
  @usableFromInline let registrar = ObservationRegistrar()

  // Exclusivity of the properties marked `@exclusivity(unchecked)` below:
  // the store is isolated to the main actor, so no two threads touch them;
  // and every access the store makes to them is instantaneous (a read, a
  // write, or a mutation that calls no code outside this file: no access
  // is held across an Observation callback, a listener or a comparison), so
  // no access can overlap another. The dynamic checks cost 11% to 13% of
  // the per-event path (BENCHMARKS.md, "The UI store at the core's speed").

  /// The state, as the store last received it, and the slot the next one
  /// is compared in.
  @usableFromInline let slots: StateSlots<State>
  /// The state, as the store last received it (a scoped store derives it
  /// first if the root took a state since). Read through ``state``, which
  /// registers the read with Observation.
  @inlinable var current: State {
    refreshIfStale()
    return slots.current.pointee
  }
  /// Whether two states are equal, when `State` is `Equatable`: an equal
  /// state does not notify the readers of ``state``. Made with
  /// `equality(of:)` where the store is made, in inlinable code.
  /// (It takes the states by address: an unspecialized closure given them
  /// by value copies each through the value witnesses.)
  // The pointers it is given are the store's own slots (`StateSlots`), both
  // initialized for the length of the call, which keeps none of them.
  @usableFromInline let isDuplicate: ((UnsafePointer<State>, UnsafePointer<State>) -> Bool)?
  /// How the store's events reach the root system (a scoped store's, mapped
  /// to the root's event type).
  @usableFromInline let route: EventRoute<Event>
  /// Stops the root system (a scoped store asks the store it was scoped
  /// from, up to the root).
  private let stopSystem: @MainActor () -> Void
  /// Reduces the events queued for the root system's hop to the main actor.
  private let processQueued: @MainActor () -> Void
  /// Keeps the root system alive: the system for a root store, the parent
  /// store for a scoped one.
  private let owner: AnyObject
  /// Who hears of each new state after this store: scoped stores, state
  /// sequences, state publishers.
  @usableFromInline @exclusivity(unchecked) var listeners: [StoreListener<State>] = []
  private var nextListenerID = 0
  /// The members of the state read through the store (`store.count`), by
  /// key path, each notified only when it changes.
  @usableFromInline @exclusivity(unchecked) var fields: [AnyKeyPath: ObservedField] = [:]
  /// The same members, in the order they were first read: each new state
  /// walks this array, not the dictionary.
  @usableFromInline @exclusivity(unchecked) var fieldList: [ObservedField] = []
  /// The comparisons made for each state (one per type of stored member,
  /// one per computed member), and the members the state being taken
  /// changed.
  @usableFromInline let members = MemberTable()
  /// Whether the store took a state whose readers it has not told yet
  /// (between `take(_:)` and `tellReaders()`).
  @usableFromInline @exclusivity(unchecked) var hasUntoldState = false
  /// Whether the store is telling its listeners of a state (from
  /// `tellReaders()`'s first callback to its last): a stop made then, from
  /// one of those callbacks, finishes the listeners once each has the state.
  @usableFromInline @exclusivity(unchecked) var isTelling = false
  /// `\Store.state`, made once: a key path literal of a generic type is
  /// instantiated by the runtime each time it is evaluated, and Observation
  /// needs one for every read and every change.
  @usableFromInline let stateKeyPath: KeyPath<Store, State>
  /// Whether ``state`` was read since the store last notified its readers.
  /// Observation registers an observer only in a read (its `access`), and an
  /// observer hears of one change only (`withObservationTracking` is
  /// one-shot), so when nobody read ``state`` since the last notification
  /// nobody can be waiting for the next: the store skips the registrar.
  @usableFromInline @exclusivity(unchecked) var stateIsRead = false
  /// Whether the system stopped: ``isStopped`` for the store's own use, which
  /// does not register a read with Observation.
  @usableFromInline @exclusivity(unchecked) var hasStopped = false
  /// The stores of this store's system: the root's count of states, and
  /// the scoped stores that take every state (StoreTree.swift).
  @usableFromInline @exclusivity(unchecked) var tree = StoreTree()
  /// For a scoped store: its state, derived from the root's current one,
  /// or `nil` to keep the last (a part that this state does not have).
  /// `nil` for the root store.
  @usableFromInline @exclusivity(unchecked) var derive: (@MainActor () -> State?)?
  /// Where this store's state lies in a state kept eagerly, for the stores
  /// scoped from it through stored properties.
  @usableFromInline @exclusivity(unchecked) var anchor: StoreAnchor?
  /// The root's `generation` when this scoped store last derived its state.
  @usableFromInline @exclusivity(unchecked) var derivedAt: UInt64 = 0
  /// How many scopes lie between this store and the root.
  @usableFromInline @exclusivity(unchecked) var depth = 0
  /// Whether the store takes every state of the root.
  @usableFromInline @exclusivity(unchecked) var isFollowed = false
  /// Whether the store has an entry in its tree's `followed` list: it
  /// keeps it through one state nobody followed it in, so that a view
  /// that reads it at each state does not add it and drop it each time.
  @usableFromInline @exclusivity(unchecked) var isListed = false
  /// Whether the store keeps its last part through the states that have
  /// none: then it takes every state, to know the last part.
  @usableFromInline @exclusivity(unchecked) var keepsLastPart = false
  /// For a scoped store: what its tree calls for each state while it is
  /// followed, made where the store is scoped (specialized for its state).
  @usableFromInline @exclusivity(unchecked) var hooks: TreeHooks?
  /// The stores scoped from this one, told when the system stops.
  @exclusivity(unchecked) var stopFollowers: [StopFollower] = []
  /// What ends the sequences and publishers of this store when it goes
  /// away. Only the main actor touches it, but for `deinit`, which runs when
  /// no other reference is left, so nothing can touch it at the same time.
  @usableFromInline var finishers: [Int: @Sendable () -> Void] = [:]

  /// Whether the system has stopped: after ``stop()``, or once the system
  /// stopped in any other way (its holder, a feedback, another thread), no
  /// event is reduced and the state no longer changes. Observation tracks it apart from the
  /// state: a view that reads it re-renders when the system stops, not for
  /// each state.
  ///
  /// ```swift
  /// Button("Retry") { store.send(.retry) }
  ///   .disabled(store.isStopped)
  /// ```
  public var isStopped: Bool {
    access(keyPath: \.isStopped)
    return hasStopped
  }

  @usableFromInline
  init(
    initial: State,
    isDuplicate: ((UnsafePointer<State>, UnsafePointer<State>) -> Bool)?,
    route: EventRoute<Event>,
    stop: @escaping @MainActor () -> Void,
    processQueued: @escaping @MainActor () -> Void,
    owner: AnyObject
  ) {
    slots = StateSlots(initial)
    stateKeyPath = \Store.state
    self.isDuplicate = isDuplicate
    self.route = route
    stopSystem = stop
    self.processQueued = processQueued
    self.owner = owner
  }

  deinit {
    for finish in finishers.values { finish() }
  }

  /// The current state.
  ///
  /// Reading it registers the read with Observation: a view that reads
  /// `state` re-renders whenever the state changes. For an `Equatable`
  /// state, an event that leaves the state equal notifies nobody. To depend
  /// on one member only, read it through the store (`store.count`), or
  /// project the state (``project(_:)``).
  ///
  /// ```swift
  /// Text(store.state.title)
  /// ```
  @inlinable
  public var state: State {
    if derive != nil { followFromNow() }
    stateIsRead = true
    access(keyPath: stateKeyPath)
    return slots.current.pointee
  }

  /// Sends an event. Called on the main actor, as a view does, the event has
  /// been reduced, every feedback has seen the new state, and ``state``
  /// holds it, by the time `send` returns.
  ///
  /// A send made while the system is reducing (from an observation
  /// callback, say) is queued and reduced right after the current event,
  /// never re-entrantly (G2). A scoped store sends its event, mapped, to the
  /// system of the store it was scoped from.
  ///
  /// ```swift
  /// Button("+") { store.send(.increment) }
  /// ```
  @inlinable
  public func send(_ event: Event) {
    route.send(event)
  }

  /// Sends several events, in order; each has been reduced when `send`
  /// returns.
  ///
  /// ```swift
  /// store.send(contentsOf: [.clear, .search("swift")])
  /// ```
  public func send(contentsOf events: some Sequence<Event>) {
    for event in events { send(event) }
  }

  /// Stops the system: every effect and input is cancelled, no event is
  /// reduced afterwards, and the state sequences and publishers of this
  /// store and of the stores scoped from the same system finish (G9).
  /// Releasing the root store and its scoped stores does the same.
  ///
  /// ```swift
  /// .onDisappear { store.stop() }
  /// ```
  public func stop() {
    stopSystem()
    systemStopped()
  }

  /// Reduces, now, the events that effects and other threads queued for
  /// the system, instead of waiting for their hop to the main actor; the
  /// store takes the states they produce before this returns.
  ///
  /// An effect's events reach a main-actor system with one hop. A test that
  /// runs effects on an executor of its own calls this after running it, so
  /// that the whole loop is deterministic (see the core's
  /// `System.processQueuedEvents()`).
  ///
  /// ```swift
  /// executor.runUntilIdle()        // the effect runs and sends
  /// store.processQueuedEvents()    // its events are reduced, here
  /// #expect(store.isLoading == false)
  /// ```
  public func processQueuedEvents() {
    processQueued()
  }

  // MARK: - Receiving states

  /// Takes a new state, then tells its readers of what changed, then the
  /// listeners. The core calls it, through the root store's observation, on
  /// the main actor, after every feedback has seen the state (G3), one state
  /// at a time (it never re-enters: a send made from here is queued).
  ///
  /// In two steps, so that no reader is told of a change before every
  /// store holds the new state (G3): `take(_:)` stores the state in this
  /// store and in every store scoped from it; `tellReaders()` then makes
  /// the Observation notifications and calls the listeners. A view whose
  /// change callback reads another member, of this store or of a scoped
  /// one, reads the new value.
  ///
  /// What it costs per state: one comparison per member read through the
  /// store; the equality check of the whole state only when someone reads
  /// ``state`` or listens (scoped stores, sequences, publishers); and a
  /// registrar call only for what changed and was read since its last
  /// notification (see `stateIsRead` and `ObservedField.isRead`).
  @inlinable
  func onState(_ new: State) {
    guard take(new) else { return }
    // The scoped stores someone follows take the state before anyone is
    // told; the others derive it when they are read.
    tree.generation &+= 1
    if !tree.followed.isEmpty { tree.takeState() }
    tellReaders()
    if !tree.followed.isEmpty { tree.tellReaders() }
  }

  /// Stores a new state and lists what changed, in this store and in the
  /// stores scoped from it; tells nobody. Returns whether anything is to be
  /// told (`false` for a state equal to the current one, or after a stop).
  @inlinable
  func take(_ new: State) -> Bool {
    guard !hasStopped else { return false }
    // The new state is copied once, into the spare slot, and compared there.
    let slots = slots
    slots.spare.initialize(to: new)
    // Nobody to tell of an equal state but readers of `state` and
    // listeners; the members read through the store compare themselves.
    if stateIsRead || !listeners.isEmpty, let isDuplicate, isDuplicate(slots.current, slots.spare) {
      slots.spare.deinitialize(count: 1)
      return false
    }
    if members.groupCount > 0 { members.markChanges(from: slots.current, to: slots.spare) }
    slots.promoteSpare()
    hasUntoldState = true
    if !listeners.isEmpty {
      for listener in listeners { listener.take?(new) }
    }
    return true
  }

  /// Tells the readers of the state taken last what changed, then the
  /// listeners (a scoped store tells its own readers then).
  @inlinable
  func tellReaders() {
    guard hasUntoldState else { return }
    hasUntoldState = false
    // The listeners of this state: a callback below (a reader's, a
    // publisher's subscriber) may stop the store; they are finished after
    // they have it (`systemStopped()`), or a sequence would end without the
    // state its store holds.
    let listening = listeners
    if !listening.isEmpty { isTelling = true }
    if stateIsRead {
      stateIsRead = false
      notifyChange(of: stateKeyPath)
    }
    if members.wordCount > 0 { tellChangedFields() }
    guard !listening.isEmpty else { return }
    var ended: Set<Int> = []
    for listener in listening where !listener.onState(current) {
      ended.insert(listener.id)
    }
    isTelling = false
    if !ended.isEmpty {
      listeners.removeAll { ended.contains($0.id) }
      for id in ended { finishers[id] = nil }
    }
    if hasStopped { finishListeners() }
  }

  /// Tells each changed field, in the order the fields were first read,
  /// that was read since its last notification. Whether a field was read is
  /// asked when its turn comes, so a read made from an earlier field's
  /// callback counts (that reader read the new value, and is told once
  /// more). A field's read flag is cleared before its notification, so
  /// that an observer that reads it again from its callback is counted as a
  /// new reader. The table is read again after each callback, which may
  /// have added a field (and grown the table).
  @inlinable
  func tellChangedFields() {
    var word = 0
    while word < members.wordCount {
      let bits = members.changed[word]
      if bits == 0 {
        word += 1
        continue
      }
      members.changed[word] = bits & (bits &- 1)
      let field = fieldList[word &<< 6 | bits.trailingZeroBitCount]
      if field.isRead {
        field.isRead = false
        field.notify()
      }
    }
  }

  /// The system stopped: no state changes any more; the listeners finish.
  @usableFromInline
  func systemStopped() {
    guard !hasStopped else { return }
    // The last state, for the readers of a scoped store that is not
    // followed: it no longer follows the root.
    refreshIfStale()
    // A followed scoped store that took the root's state but was not told
    // yet (a reader of the root stopped the store): its readers and
    // listeners hear of it first.
    if hasUntoldState {
      tellReaders()
      guard !hasStopped else { return }  // one of them stopped it
    }
    withMutation(keyPath: \.isStopped) { hasStopped = true }
    // Stopped from a callback of `tellReaders()`: it finishes the listeners
    // once each has its state.
    if !isTelling { finishListeners() }
    let scoped = stopFollowers
    stopFollowers.removeAll()
    for follower in scoped { follower.store?.systemStopped() }
  }

  /// Finishes the sequences and publishers of the stopped store.
  @usableFromInline
  func finishListeners() {
    let ending = listeners
    listeners.removeAll()
    for listener in ending { listener.finish() }
    for finish in finishers.values { finish() }
    finishers.removeAll()
  }

  /// Adds a listener that hears of each new state of this store, until it
  /// returns `false` or the system stops (then `finish` is called).
  /// `finishOnRelease`, if given, is called if the store goes away first.
  ///
  /// `take`, if given, is called with each new state before any reader of
  /// this store is told of it, and `onState` after (see `onState(_:)`).
  func addListener(
    take: (@MainActor (State) -> Void)? = nil,
    onState: @escaping @MainActor (State) -> Bool,
    finish: @escaping @MainActor () -> Void,
    finishOnRelease: (@Sendable () -> Void)? = nil
  ) {
    nextListenerID += 1
    guard !hasStopped else {
      finish()
      return
    }
    if derive != nil { followFromNow() }
    listeners.append(StoreListener(id: nextListenerID, take: take, onState: onState, finish: finish))
    if let finishOnRelease { finishers[nextListenerID] = finishOnRelease }
  }

  // MARK: - Observable, by hand

  /// Registers a read of `keyPath` with Observation.
  @usableFromInline
  nonisolated func access<Member>(keyPath: KeyPath<Store, Member>) {
    registrar.access(self, keyPath: keyPath)
  }

  /// Tells the observers of `keyPath` that it changed: its will-set and
  /// did-set notifications, made once the store holds the new state, so
  /// that an observer called at the will-set reads the new value.
  @usableFromInline
  nonisolated func notifyChange<Member>(of keyPath: KeyPath<Store, Member>) {
    registrar.willSet(self, keyPath: keyPath)
    registrar.didSet(self, keyPath: keyPath)
  }

  /// Runs `mutation` between the will-set and did-set notifications of
  /// `keyPath`.
  @usableFromInline
  nonisolated func withMutation<Member, Result>(
    keyPath: KeyPath<Store, Member>, _ mutation: () throws -> Result
  ) rethrows -> Result {
    try registrar.withMutation(of: self, keyPath: keyPath, mutation)
  }
}

extension Store: Observable {}
