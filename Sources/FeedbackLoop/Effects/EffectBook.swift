import DequeModule

/// The bookkeeping of one feedback's effects, as a value: which effects
/// were started, which run, which wait their turn, which were cancelled,
/// and whether an effect's event is still welcome (G4, G6, G7).
///
/// In the style of ``OwnershipStateMachine``: every transition is a
/// mutating function of this value that says what to do, and the runtime
/// that owns the book does it (it cancels the tasks, reports to the
/// monitor, publishes the watermark in `SystemCore.watermarks`). The book
/// holds no task and no lock: `Handle` is what the runtime keeps of a
/// running effect (a `Task` in the runtimes, a plain value in
/// EffectBookTests), and `Pending` an effect waiting its turn. Only the
/// thread that owns the loop touches a runtime's book.
///
/// Effects are numbered from 1, in the order they are started, by one
/// counter for every shape of feedback (0 is a feedback's own task, which
/// is never cancelled). Two shapes use the book:
///
/// - One effect after another (the query, predicate and event feedbacks,
///   under an ``ExecutionStrategy``): ``admit(queueing:)``, ``started(_:handle:)``,
///   ``finish(_:)``, ``cancelAll()``. Cancelling them all is a watermark:
///   every effect numbered at most ``cancelledThrough`` is cancelled, so an
///   immediate effect (`.send`) needs no entry at all.
/// - One effect per key (the keyed feedbacks, features by id, child
///   systems): ``request(_:number:handle:finished:)``, ``cancel(_:)``,
///   ``end(_:)``. A key's effect is cancelled on its own, and its number is
///   kept in ``cancelled`` until its end comes, so that its late events are
///   dropped until then and nothing after.
///
/// Whichever the shape, ``isCancelled(_:)`` is the one answer to "was this
/// effect cancelled?".
@usableFromInline
struct EffectBook<Key: Hashable, Handle, Pending> {
  /// The number of the last effect started or skipped: 0 before the first.
  @usableFromInline var lastNumber: UInt64 = 0
  /// Every effect numbered at most this one is cancelled.
  @usableFromInline var cancelledThrough: UInt64 = 0
  /// One after another: the effects whose task runs, by number.
  @usableFromInline var running: [UInt64: Handle] = [:]
  /// One after another, ``ExecutionStrategy/queue``: the effects waiting
  /// for the running one to end, in the order they were triggered.
  @usableFromInline var waiting = Deque<Waiting>()
  /// One per key: each requested key's effect, running or finished on its
  /// own (then kept, so that it is not restarted while the key stays).
  @usableFromInline var requests: [Key: Request] = [:]
  /// One per key: the key of each effect whose end has not come yet.
  @usableFromInline var keys: [UInt64: Key] = [:]
  /// One per key: the effects cancelled one by one whose end has not come
  /// yet; their events are dropped until then.
  @usableFromInline var cancelled: Set<UInt64> = []

  @inlinable
  init() {}

  /// A book whose numbering goes on from `lastNumber` (tests of the limits).
  init(lastNumber: UInt64) {
    self.lastNumber = lastNumber
  }

  /// An effect of a ``ExecutionStrategy/queue`` feedback waiting its turn.
  @usableFromInline
  struct Waiting {
    @usableFromInline let number: UInt64
    @usableFromInline let effect: Pending

    @inlinable
    init(number: UInt64, effect: Pending) {
      self.number = number
      self.effect = effect
    }
  }

  /// A key's effect.
  @usableFromInline
  struct Request {
    @usableFromInline let number: UInt64
    /// What the runtime keeps of it while it runs; `nil` once it ended.
    @usableFromInline var handle: Handle?
    /// It ended on its own: not cancelled when its key goes, not restarted
    /// while its key stays.
    @usableFromInline var finished: Bool

    @inlinable
    init(number: UInt64, handle: Handle?, finished: Bool) {
      self.number = number
      self.handle = handle
      self.finished = finished
    }
  }

  // MARK: - Numbering and the one answer

  /// The number of a new effect. After 2^64 - 1 effects the arithmetic
  /// traps rather than wrap: a wrapped number would be at or under the
  /// watermark, and a live effect's events would be dropped.
  @inlinable
  mutating func nextNumber() -> UInt64 {
    lastNumber += 1
    return lastNumber
  }

  /// Whether the events of effect `number` are to be dropped: it was
  /// cancelled (all at once, or its key went) and not started again. A
  /// feedback's own task (0) is never cancelled.
  @inlinable
  func isCancelled(_ number: UInt64) -> Bool {
    number != 0 && (number <= cancelledThrough || (!cancelled.isEmpty && cancelled.contains(number)))
  }

  // MARK: - One effect after another

  /// Whether an effect runs or waits.
  @inlinable
  var hasRunningOrWaiting: Bool { !running.isEmpty || !waiting.isEmpty }

  /// Where a new effect goes.
  @usableFromInline
  enum Admission: Equatable {
    /// Start it now, numbered so.
    case start(UInt64)
    /// A ``ExecutionStrategy/queue`` feedback runs one: the effect waits
    /// (``wait(_:effect:)``).
    case wait(UInt64)
  }

  /// Numbers a new effect and says whether it starts now or waits: it waits
  /// when `queueing` (the ``ExecutionStrategy/queue`` strategy) and another
  /// runs or waits.
  @inlinable
  mutating func admit(queueing: Bool) -> Admission {
    let number = nextNumber()
    return queueing && hasRunningOrWaiting ? .wait(number) : .start(number)
  }

  /// Keeps effect `number`, admitted with ``Admission/wait(_:)``, until the
  /// running one ends.
  @inlinable
  mutating func wait(_ number: UInt64, effect: Pending) {
    waiting.append(Waiting(number: number, effect: effect))
  }

  /// Effect `number`'s task runs: `handle` is what cancels it.
  @inlinable
  mutating func started(_ number: UInt64, handle: Handle) {
    running[number] = handle
  }

  /// Effect `number`'s task ended: whether it was running (`false`: it was
  /// cancelled before, or the number is unknown, and there is nothing to
  /// report).
  @inlinable
  mutating func finish(_ number: UInt64) -> Bool {
    running.removeValue(forKey: number) != nil
  }

  /// The waiting effect whose turn it is, if `queueing` and none runs.
  @inlinable
  mutating func nextWaiting(queueing: Bool) -> Waiting? {
    guard queueing, running.isEmpty else { return nil }
    return waiting.popFirst()
  }

  /// Cancels every effect started so far, by raising the watermark to the
  /// last number: the caller publishes ``cancelledThrough``. Returns whether
  /// some ran or waited; then ``removeRunningAndWaiting()`` says which.
  @inlinable
  mutating func cancelAll() -> Bool {
    cancelledThrough = lastNumber
    return hasRunningOrWaiting
  }

  /// What ``cancelAll()`` cancelled that ran or waited, removed from the
  /// book: the running effects in the order they started (with the handle
  /// to cancel), then the waiting ones (without).
  @usableFromInline
  mutating func removeRunningAndWaiting() -> [(number: UInt64, handle: Handle?)] {
    var removed: [(number: UInt64, handle: Handle?)] = running.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
    removed += waiting.map { ($0.number, nil) }
    running.removeAll()
    waiting.removeAll()
    return removed
  }

  // MARK: - One effect per key

  /// Whether `key` was requested: its effect runs, or finished on its own
  /// and is not to be restarted while the key stays.
  @inlinable
  func isRequested(_ key: Key) -> Bool { requests[key] != nil }

  /// The requested keys (a copy: cancelling changes the table).
  @inlinable
  var requestedKeys: [Key] { Array(requests.keys) }

  /// `key`'s effect, numbered `number` (``nextNumber()``), starts; it is
  /// `finished` already if it ends as it starts (`.none`), and then no end
  /// will come for it. Replaces an effect the key had, returned for the
  /// caller to cancel (``cancel(_:)`` first is the usual order; this keeps
  /// a forgotten one from running unseen).
  @inlinable
  @discardableResult
  mutating func request(_ key: Key, number: UInt64, handle: Handle?, finished: Bool) -> Request? {
    if !finished { keys[number] = key }
    let replaced = requests.updateValue(Request(number: number, handle: handle, finished: finished), forKey: key)
    if let replaced, !replaced.finished { cancelled.insert(replaced.number) }
    return replaced
  }

  /// `key` is no longer requested: its effect, removed, or `nil` if it had
  /// none. Unless it finished on its own, the effect is cancelled, and its
  /// events are dropped until its end comes.
  @inlinable
  mutating func cancel(_ key: Key) -> Request? {
    guard let request = requests.removeValue(forKey: key) else { return nil }
    if !request.finished { cancelled.insert(request.number) }
    return request
  }

  /// How a key's effect ended.
  @usableFromInline
  enum End {
    /// It was cancelled before: nothing to report.
    case cancelled
    /// The number is unknown, or its key was requested again since.
    case unknown
    /// It finished on its own, its key still requested: report it, and
    /// finish what the runtime kept of it (`handle`).
    case finished(Key, handle: Handle?)
  }

  /// Effect `number`'s end came (its task ended, or the end queued after an
  /// immediate effect's events).
  @inlinable
  mutating func end(_ number: UInt64) -> End {
    if !cancelled.isEmpty, cancelled.remove(number) != nil {
      keys[number] = nil
      return .cancelled
    }
    guard let key = keys.removeValue(forKey: number), let index = requests.index(forKey: key),
      requests.values[index].number == number
    else { return .unknown }
    let handle = requests.values[index].handle
    requests.values[index].finished = true
    requests.values[index].handle = nil
    return .finished(key, handle: handle)
  }

  /// The key of effect `number`, while its end has not come.
  @inlinable
  func key(of number: UInt64) -> Key? { keys[number] }
}
