/// The effects of a keyed feedback, one per key (G6): started when a key
/// appears, cancelled when it goes, left alone while it stays, and not
/// restarted after finishing on their own while their key stays.
///
/// Each effect, immediate or not, ends with an `effectEnded` item, so that
/// the events of an effect whose key was removed are dropped until that item
/// comes (nothing it sent can come after it). Owned by the draining thread.
@usableFromInline
final class KeyedEffects<State: Sendable, Event: Sendable, Key: Hashable & Sendable, Value: Sendable> {
  private unowned(unsafe) let core: SystemCore<State, Event>
  private let feedback: FeedbackID
  private var lastNumber: UInt64 = 0
  private(set) var entries: [Key: Entry] = [:]
  private var keys: [UInt64: Key] = [:]
  private var cancelled: Set<UInt64> = []

  struct Entry {
    let number: UInt64
    var value: Value
    var task: Task<Void, Never>?
    var updates: AsyncStream<Value>.Continuation?
    var finished = false
  }

  init(core: SystemCore<State, Event>, feedback: FeedbackID) {
    self.core = core
    self.feedback = feedback
  }

  @usableFromInline
  func start(_ key: Key, value: Value, effect: (AsyncStream<Value>) -> Effect<Event>) {
    lastNumber += 1
    let number = lastNumber
    let token = EffectToken(feedback: Int32(feedback.index), number: number)
    let (updates, continuation) = AsyncStream<Value>.makeStream(bufferingPolicy: .bufferingNewest(1))
    var entry = Entry(number: number, value: value)
    keys[number] = key
    core.monitor?.receive(.effectStarted(effectID(number)))
    switch effect(updates).operation {
    case .none:
      entry.finished = true
      continuation.finish()
      core.monitor?.receive(.effectFinished(effectID(number)))
      keys[number] = nil
    case .send(let event):
      continuation.finish()
      enqueueImmediate(CollectionOfOne(event), token: token)
    case .sendAll(let events):
      continuation.finish()
      enqueueImmediate(events, token: token)
    case .run(let options, let body, let handler):
      entry.updates = continuation
      entry.task = core.spawnEffect(token, options: options, body: body, catch: handler)
    }
    entries[key] = entry
  }

  /// An immediate effect's events, then its end, so that events of a key
  /// removed before they are reduced are dropped until that end.
  private func enqueueImmediate(_ events: some Collection<Event>, token: EffectToken) {
    for event in events { core.enqueueFromLoop(.event(event, token)) }
    core.enqueueFromLoop(.effectEnded(token, .finished))
  }

  /// Hands a kept key's new value to its running effect.
  @usableFromInline
  func update(_ key: Key, to value: Value) {
    entries[key]?.value = value
    entries[key]?.updates?.yield(value)
  }

  @usableFromInline
  func cancel(_ key: Key) {
    guard let entry = entries.removeValue(forKey: key) else { return }
    entry.updates?.finish()
    guard !entry.finished else { return }
    cancelled.insert(entry.number)
    entry.task?.cancel()
    core.monitor?.receive(.effectCancelled(effectID(entry.number)))
  }

  func cancelAll() {
    for key in Array(entries.keys) { cancel(key) }
  }

  func isLive(_ number: UInt64) -> Bool { !cancelled.contains(number) }

  func effectEnded(_ number: UInt64, outcome: EffectOutcome) {
    if cancelled.remove(number) != nil {
      keys[number] = nil
      return
    }
    guard let key = keys.removeValue(forKey: number), entries[key]?.number == number else { return }
    entries[key]?.finished = true
    entries[key]?.task = nil
    entries[key]?.updates?.finish()
    entries[key]?.updates = nil
    switch outcome {
    case .finished, .cancelled:
      core.monitor?.receive(.effectFinished(effectID(number, key: key)))
    case .failed(let error):
      core.reportUnmappedError(error, of: effectID(number, key: key))
    }
  }

  func effectID(_ number: UInt64, key: Key? = nil) -> EffectID {
    let key = key ?? keys[number]
    return EffectID(feedback: feedback, number: number, trigger: key.map { "\($0)" })
  }
}

/// What the keyed feedbacks share: the table of their effects, and how the
/// loop reaches it. Subclasses say how a state changes the requests, or a
/// factory replaces `stateHandler` (`KeyedRuntime.treeSet`).
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
    stateHandler = { [unowned(unsafe) self] state in self.onState(state) }
    liveness = { table.isLive($0) }
  }

  /// A new state: start, update and cancel effects as its requests say.
  func onState(_ state: State) {}

  override func effectEnded(_ number: UInt64, outcome: EffectOutcome) { table.effectEnded(number, outcome: outcome) }
  override func effectID(_ number: UInt64) -> EffectID { table.effectID(number) }
  override func stop() { table.cancelAll() }
}

/// `react(requests:)` over a set: one effect per request.
final class KeyedSetRuntime<State: Sendable, Event: Sendable, Request: Hashable & Sendable>: KeyedRuntime<
  State, Event, Request, Request
>
{
  private let requests: @Sendable (State) -> Set<Request>
  private let effects: @Sendable (Request) -> Effect<Event>
  private var last: Set<Request> = []

  init(
    id: FeedbackID, core: SystemCore<State, Event>,
    requests: @escaping @Sendable (State) -> Set<Request>, effects: @escaping @Sendable (Request) -> Effect<Event>
  ) {
    self.requests = requests
    self.effects = effects
    super.init(id: id, core: core)
  }

  override func onState(_ state: State) {
    let current = requests(state)
    // Equal sets (in particular the same storage, O(1)) change nothing.
    guard current != last else { return }
    for request in last where !current.contains(request) { table.cancel(request) }
    for request in current where !last.contains(request) {
      table.start(request, value: request) { _ in effects(request) }
    }
    last = current
  }
}

/// `react(requests:)` by id: one effect per id; a kept id's new value is
/// handed to its running effect.
final class KeyedValueRuntime<State: Sendable, Event: Sendable, ID: Hashable & Sendable, Value: Equatable & Sendable>:
  KeyedRuntime<State, Event, ID, Value>
{
  private let requests: @Sendable (State) -> [ID: Value]
  private let effects: @Sendable (ID, Value, AsyncStream<Value>) -> Effect<Event>
  private var last: [ID: Value] = [:]

  init(
    id: FeedbackID, core: SystemCore<State, Event>,
    requests: @escaping @Sendable (State) -> [ID: Value],
    effects: @escaping @Sendable (ID, Value, AsyncStream<Value>) -> Effect<Event>
  ) {
    self.requests = requests
    self.effects = effects
    super.init(id: id, core: core)
  }

  override func onState(_ state: State) {
    let current = requests(state)
    guard current != last else { return }
    for key in last.keys where current[key] == nil { table.cancel(key) }
    for (key, value) in current {
      if let previous = last[key] {
        if previous != value { table.update(key, to: value) }
      } else {
        table.start(key, value: value) { updates in effects(key, value, updates) }
      }
    }
    last = current
  }
}
