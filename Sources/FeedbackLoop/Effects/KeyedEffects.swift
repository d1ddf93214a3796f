/// The effects of a keyed feedback, one per key (G6): started when a key
/// appears, cancelled when it goes, left alone while it stays, and not
/// restarted after finishing on their own while their key stays.
///
/// Each effect, immediate or not, ends with an `effectEnded` item, so that
/// the events of an effect whose key was removed are dropped until that item
/// comes (nothing it sent can come after it). Owned by the draining thread.
///
/// Starting, updating and cancelling are `@inlinable`, so that a handler
/// built in the user's module (the tree feedbacks') runs them specialized:
/// one start and one cancel per changed key are on the hot path.
@usableFromInline
final class KeyedEffects<State: Sendable, Event: Sendable, Key: Hashable & Sendable, Value: Sendable> {
  /// Unowned and unchecked: the system owns its runtimes, and so this
  /// table, and drops them only when it stops (see `FeedbackRuntime.core`).
  @usableFromInline unowned(unsafe) let core: SystemCore<State, Event>
  @usableFromInline let feedback: FeedbackID
  /// Which key's effect runs, ended or was cancelled: the transitions, and
  /// "was it cancelled?", are the book's (EffectBook.swift); this class
  /// starts and cancels the tasks and reports to the monitor.
  @exclusivity(unchecked) @usableFromInline var book = EffectBook<Key, KeyedTask<Value>, Never>()

  init(core: SystemCore<State, Event>, feedback: FeedbackID) {
    self.core = core
    self.feedback = feedback
  }

  /// Whether `key` was a request of the last state: its effect runs, or
  /// finished on its own and is not to be restarted while the key stays.
  @inlinable
  func isRequested(_ key: Key) -> Bool { book.isRequested(key) }

  /// The requests of the last state (a copy: cancelling changes the table).
  @inlinable
  var requested: [Key] { book.requestedKeys }

  /// Starts the effect of a new key, which is handed the key's later values
  /// through `updates`.
  @inlinable
  func start(_ key: Key, effect: (_ updates: AsyncStream<Value>) -> Effect<Event>) {
    let (updates, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(1))
    start(key, effect: effect(updates), updates: ValueUpdates(continuation))
  }

  /// Starts the effect of a new key that takes no later values (a set's
  /// request is its own value): no stream to make.
  @inlinable
  func start(_ key: Key, effect: Effect<Event>) {
    start(key, effect: effect, updates: nil)
  }

  @inlinable
  func start(_ key: Key, effect: Effect<Event>, updates continuation: ValueUpdates<Value>?) {
    let number = book.nextNumber()
    let token = EffectToken(feedback: Int32(feedback.index), number: number)
    if core.isMonitored { core.monitor?.report(.effectStarted(effectID(number, key: key))) }
    let replaced: EffectBook<Key, KeyedTask<Value>, Never>.Request?
    switch effect.operation {
    case .none:
      // Ended already: no end will look its key up.
      continuation?.finish()
      replaced = book.request(key, number: number, handle: nil, finished: true)
      if core.isMonitored { core.monitor?.report(.effectFinished(effectID(number, key: key))) }
    case .send(let event):
      continuation?.finish()
      replaced = book.request(key, number: number, handle: nil, finished: false)
      enqueueImmediate(CollectionOfOne(event), token: token)
    case .sendAll(let events):
      continuation?.finish()
      replaced = book.request(key, number: number, handle: nil, finished: false)
      enqueueImmediate(events, token: token)
    case .run(let task):
      let running = core.spawnEffect(token, options: task.options, body: task.body, catch: task.catch)
      replaced = book.request(
        key, number: number, handle: KeyedTask(task: running, updates: continuation), finished: false)
    }
    if let replaced { cancelled(replaced) }
  }

  /// An immediate effect's events, then its end, so that events of a key
  /// removed before they are reduced are dropped until that end.
  @inlinable
  func enqueueImmediate(_ events: some Collection<Event>, token: EffectToken) {
    for event in events { core.enqueueEventFromLoop(event, token) }
    core.enqueueFromLoop(.effectEnded(token, .finished))
  }

  /// Hands a kept key's new value to its running effect.
  @inlinable
  func update(_ key: Key, to value: Value) {
    book.requests[key]?.handle?.updates?.yield(value)
  }

  @inlinable
  func cancel(_ key: Key) {
    guard let request = book.cancel(key) else { return }
    cancelled(request)
  }

  /// Does what the book said of a key's effect it cancelled (or replaced).
  @inlinable
  func cancelled(_ request: EffectBook<Key, KeyedTask<Value>, Never>.Request) {
    request.handle?.updates?.finish()
    guard !request.finished else { return }
    request.handle?.task?.cancel()
    if core.isMonitored { core.monitor?.report(.effectCancelled(effectID(request.number))) }
  }

  func cancelAll() {
    for key in book.requestedKeys { cancel(key) }
  }

  func isCancelled(_ number: UInt64) -> Bool { book.isCancelled(number) }

  func effectEnded(_ number: UInt64, outcome: EffectOutcome) {
    guard case .finished(let key, let handle) = book.end(number) else { return }
    handle?.updates?.finish()
    switch outcome {
    case .finished, .cancelled:
      core.monitor?.report(.effectFinished(effectID(number, key: key)))
    case .failed(let error):
      core.reportUnmappedError(error, of: effectID(number, key: key))
    }
  }

  @usableFromInline
  func effectID(_ number: UInt64, key: Key? = nil) -> EffectID {
    let key = key ?? book.key(of: number)
    return EffectID(feedback: feedback, number: number, trigger: key.map { "\($0)" })
  }
}

/// What a keyed table keeps of a key's running effect: its task, and where
/// the key's new values go (`nil` for an effect that takes none).
@usableFromInline
struct KeyedTask<Value: Sendable> {
  @usableFromInline let task: Task<Void, Never>?
  @usableFromInline let updates: ValueUpdates<Value>?

  @inlinable
  init(task: Task<Void, Never>?, updates: ValueUpdates<Value>?) {
    self.task = task
    self.updates = updates
  }
}

/// What the keyed feedbacks share: the table of their effects, and how the
/// loop reaches it. Every keyed form, over every collection, is this one
/// runtime and a handler that tells the table, from each state, which
/// requests to start, update and cancel: an `@inlinable` factory per
/// collection (`KeyedRuntime.set`, `.dictionary` below; `.trackedSet`,
/// `.trackedDictionary` in KeyedTrackedRuntime.swift; `.treeSet`,
/// `.treeDictionary` in KeyedTreeRuntimes.swift), so that hashing the
/// requests runs specialized in the user's module. The handlers differ only
/// in how they find the requests that changed, which is what the collection
/// decides (a snapshot comparison, a change log, a tree difference). Not
/// final: child systems (Composition/ChildSystems.swift) subclass it to stop
/// their children with the table.
@usableFromInline
class KeyedRuntime<State: Sendable, Event: Sendable, Key: Hashable & Sendable, Value: Sendable>:
  FeedbackRuntime<State, Event>
{
  @usableFromInline let table: KeyedEffects<State, Event, Key, Value>

  @usableFromInline
  override init(id: FeedbackID, core: SystemCore<State, Event>) {
    let table = KeyedEffects<State, Event, Key, Value>(core: core, feedback: id)
    self.table = table
    super.init(id: id, core: core)
    // Keys are cancelled one by one, not under a watermark: every event of
    // an effect is at or under `.max`, so the loop asks the book.
    assert(id.index >= 0 && id.index < max(core.feedbackCount, 1), "a watermark slot outside the system's")
    core.watermarks[id.index] = .max
  }

  override func effectEnded(_ number: UInt64, outcome: EffectOutcome) { table.effectEnded(number, outcome: outcome) }
  override func effectID(_ number: UInt64) -> EffectID { table.effectID(number) }
  override func stop() { table.cancelAll() }
  override func isCancelled(_ number: UInt64) -> Bool { table.isCancelled(number) }
}

extension KeyedRuntime where Key == Value {
  /// `requests(_:)` over a set: one effect per request. It compares each
  /// state's set with the last one it keeps, O(n) when they differ.
  @inlinable
  static func set(
    id: FeedbackID, core: SystemCore<State, Event>,
    requests: @escaping @Sendable (State) -> Set<Key>, effects: @escaping @Sendable (Key) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = KeyedRuntime(id: id, core: core)
    let table = runtime.table
    let last = Memory(Set<Key>())
    runtime.onEachState { state, _ in
      let current = requests(state)
      // Equal sets (in particular the same storage, O(1)) change nothing.
      guard current != last.value else { return }
      for request in last.value where !current.contains(request) { table.cancel(request) }
      for request in current where !last.value.contains(request) {
        table.start(request, effect: effects(request))
      }
      last.value = current
    }
    return runtime
  }
}

extension KeyedRuntime where Value: Equatable {
  /// `requests(_:)` by id: one effect per id; a kept id's new value is
  /// handed to its running effect. It compares each state's dictionary with
  /// the last one it keeps, O(n) when they differ.
  @inlinable
  static func dictionary(
    id: FeedbackID, core: SystemCore<State, Event>,
    requests: @escaping @Sendable (State) -> [Key: Value],
    effects: @escaping @Sendable (Key, Value, AsyncStream<Value>) -> Effect<Event>
  ) -> FeedbackRuntime<State, Event> {
    let runtime = KeyedRuntime(id: id, core: core)
    let table = runtime.table
    let last = Memory([Key: Value]())
    runtime.onEachState { state, _ in
      let current = requests(state)
      guard current != last.value else { return }
      for key in last.value.keys where current[key] == nil { table.cancel(key) }
      for (key, value) in current {
        if let previous = last.value[key] {
          if previous != value { table.update(key, to: value) }
        } else {
          table.start(key) { updates in effects(key, value, updates) }
        }
      }
      last.value = current
    }
    return runtime
  }
}

/// The continuation of a kept key's stream of values, in a box: the
/// standard library's `AsyncStream.Continuation` has a layout known only at
/// run time (it is not frozen), and a table entry holding it inline would be
/// copied through the runtime's generic value witnesses on every start and
/// cancel, measured (the keyed-feedback benchmark) at a third of a keyed event's cost. A set's requests
/// take no updates and allocate no box.
@usableFromInline
final class ValueUpdates<Value: Sendable> {
  @usableFromInline let continuation: AsyncStream<Value>.Continuation

  @inlinable
  init(_ continuation: AsyncStream<Value>.Continuation) { self.continuation = continuation }

  @inlinable
  func yield(_ value: Value) { continuation.yield(value) }

  @inlinable
  func finish() { continuation.finish() }
}
