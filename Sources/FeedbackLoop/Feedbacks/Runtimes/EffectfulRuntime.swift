import DequeModule

/// A runtime that starts and cancels its feedback's effects itself (see
/// EffectfulRuntime+Effects.swift); the query, predicate and event feedbacks
/// are this runtime with a handler.
///
/// One object per feedback rather than a runtime and a separate runner:
/// an idle system's memory is mostly its feedbacks' objects (the idle-systems benchmark in
/// BENCHMARKS.md).
@usableFromInline
class EffectfulRuntime<State: Sendable, Event: Sendable>: FeedbackRuntime<State, Event> {
  // Only the owning thread touches these: dynamic exclusivity checks would
  // cost more than the work they guard.
  @usableFromInline final let strategy: ExecutionStrategy
  /// Which effects run and wait, and which are cancelled (EffectBook.swift).
  /// A waiting effect is kept as an object (a ``WaitingEffect``), so that
  /// the book's type does not depend on `Event`: the unspecialized code of
  /// this class (`endEffect`, run once per task effect) then reaches it at
  /// fixed offsets, with no metadata look-up (the task-effects benchmark,
  /// measured: 12% slower
  /// with `Effect<Event>` in the book's type).
  @exclusivity(unchecked) @usableFromInline final var book = EffectBook<Never, Task<Void, Never>, AnyObject>()

  @usableFromInline
  init(id: FeedbackID, core: SystemCore<State, Event>, strategy: ExecutionStrategy) {
    self.strategy = strategy
    assert(id.index >= 0 && id.index < max(core.feedbackCount, 1), "a watermark slot outside the system's")
    super.init(id: id, core: core)
  }

  /// This feedback's slot in `SystemCore.watermarks`, where the loop reads
  /// the book's ``EffectBook/cancelledThrough`` before each of its events:
  /// a raw pointer into the system's allocation, valid as long as the
  /// system, which outlives this runtime (see `core`). Computed, not
  /// stored: a few instructions when effects are cancelled, against 8
  /// bytes of every idle feedback (W4).
  @inlinable
  final var watermark: UnsafeMutablePointer<UInt64> {
    loop._withUnsafeGuaranteedRef { $0.watermarks } + id.index
  }

  @usableFromInline
  override func effectEnded(_ number: UInt64, outcome: EffectOutcome) {
    endEffect(number, outcome: outcome)
  }

  @usableFromInline
  override func effectID(_ number: UInt64) -> EffectID { identify(number) }

  @usableFromInline
  override func stop() { cancelAll() }

  @usableFromInline
  override func isCancelled(_ number: UInt64) -> Bool { book.isCancelled(number) }

  /// The runtime as its handlers capture it: unretained (the system keeps it
  /// alive while they can run), and called without retaining it.
  @inlinable
  final var unretained: Unmanaged<EffectfulRuntime> { Unmanaged.passUnretained(self) }

  /// The system, for the per-event path: calling through `core` retains and
  /// releases it around each access. Computed, not stored (the idle-systems benchmark).
  @inlinable
  final var loop: Unmanaged<SystemCore<State, Event>> { Unmanaged.passUnretained(core) }
}

/// What a feedback's handler remembers between states. A class rather than a
/// captured `var`, whose every access Swift would check dynamically; only the
/// draining thread touches it.
@usableFromInline
final class Memory<Value> {
  @exclusivity(unchecked) @usableFromInline var value: Value

  @inlinable
  init(_ value: Value) { self.value = value }
}
