import Synchronization

/// A handle that imperative code sends events through: a button's action, a
/// notification observer, a delegate callback (G8).
///
/// Bind it to a system with ``Feedback/input(_:name:fileID:line:)-(Input<Event>,_,_,_)``.
/// Events sent before the system starts are kept and delivered, in order,
/// when it does; events sent after it stopped are reported to its monitor
/// as ``DiscardReason/systemStopped``. An input that outlives its system
/// keeps nothing of it alive: the reducer goes when the system stops, the
/// monitor and the state when it is released (after which what the input
/// sends is dropped, with no monitor left to report it to).
///
/// An input sends to the system that bound it last. Binding it again (to a
/// second system, or to a new one after the first was released) moves it
/// there: the earlier system receives nothing sent after the new binding,
/// and keeps or reports what was sent before. Each binding keeps a small
/// handle to its system's core until the input is released, so rebind an
/// input a bounded number of times, not per event.
///
/// Sending through an input costs what ``System/send(_:isolation:)`` costs:
/// no task, no hop, no allocation.
///
/// ```swift
/// final class CounterViewController {
///   let buttons = Input<Counter.Event>()
///   lazy var system = System(initial: 0, reduceReturning: Counter.reduce, feedbacks: [.input(buttons)])
///   func plusTapped() { buttons.send(.increment) }
/// }
/// ```
public final class Input<Event: Sendable>: Sendable {
  /// The address of the bound system's target, or 0: read by every send,
  /// without a lock, and written only by a binding, under `binding`'s lock.
  /// It holds one retain of the target it points to. The address as an
  /// integer: an atomic pointer would not be `Sendable`.
  @usableFromInline let target = Atomic<UInt>(0)
  /// What a binding changes. Inline, with the target: an input is one
  /// allocation (the idle-systems benchmark counts one per system).
  private let binding = InlineLocked(InputBinding<Event>())

  /// A new input, not bound to any system yet.
  public init() {}

  deinit {
    if let target = UnsafeRawPointer(bitPattern: target.load(ordering: .acquiring)) {
      // The cell holds one retain, taken by `bind` (`passRetained`): given
      // back here, once, as nothing can send through a released input.
      Unmanaged<InputTarget<Event>>.fromOpaque(target).release()
    }
  }

  /// Sends `event` to the bound system, or keeps it until one is bound.
  ///
  /// Called on the main actor, a send to a main-actor system has reduced
  /// before it returns (`caller` is filled in by the compiler).
  @inlinable
  public func send(_ event: Event, isolation caller: isolated (any Actor)? = #isolation) {
    if let target = UnsafeRawPointer(bitPattern: target.load(ordering: .acquiring)) {
      // The input holds the target for as long as it lives: no retain
      // needed. A later binding moves the replaced target's retain to
      // `replacedTargets`, never releases it, so the target stays alive
      // while this caller, who holds the input, delivers through it.
      Unmanaged<InputTarget<Event>>.fromOpaque(target)._withUnsafeGuaranteedRef {
        $0.deliver(event, caller === MainActor.shared)
      }
    } else {
      sendUnbound(event, callerIsMainActor: caller === MainActor.shared)
    }
  }

  /// The slow path: no system yet, or one being bound right now.
  @usableFromInline
  func sendUnbound(_ event: Event, callerIsMainActor: Bool) {
    let boundMeanwhile: UnsafeRawPointer? = binding.withLock { binding in
      if let bound = UnsafeRawPointer(bitPattern: target.load(ordering: .acquiring)) { return bound }
      binding.pending.append(event)
      return nil
    }
    // Unretained: alive as long as the input, as in `send`. Delivered
    // outside the lock, which a delivery that binds again would take.
    if let boundMeanwhile {
      Unmanaged<InputTarget<Event>>.fromOpaque(boundMeanwhile).takeUnretainedValue().deliver(event, callerIsMainActor)
    }
  }

  /// Binds to `target`, replacing an earlier binding (the later binding
  /// wins); returns whether there was one. The events kept so far go first,
  /// through the system's shared queue, so that a sender's events stay in
  /// order across the binding.
  func bind<State: Sendable>(to newTarget: InputTarget<Event>, flushingInto core: SystemCore<State, Event>) -> Bool {
    let (replacedOne, refused) = binding.withLock { binding -> (Bool, [Event]) in
      // Only a binding stores the target, under this lock: nil here stays
      // nil until the store below, and `pending` is empty once a target is set.
      if target.load(ordering: .acquiring) == 0 {
        // The kept events are queued before the target is published: a
        // sender that sees the target delivers behind them, never ahead (G2).
        let refused = core.enqueueShared(binding.pending)
        binding.pending = []
        // The cell's retain, given back by `deinit` or moved to
        // `replacedTargets` by a later binding.
        target.store(UInt(bitPattern: Unmanaged.passRetained(newTarget).toOpaque()), ordering: .releasing)
        return (false, refused)
      }
      let replaced = target.exchange(
        UInt(bitPattern: Unmanaged.passRetained(newTarget).toOpaque()), ordering: .acquiringAndReleasing)
      // The input's retain on the replaced target moves to `replacedTargets`.
      // Non-nil: checked under this same lock above, and only a binding,
      // under it, stores a target, never a null one.
      binding.replacedTargets.append(
        Unmanaged<InputTarget<Event>>.fromOpaque(UnsafeRawPointer(bitPattern: replaced).unsafelyUnwrapped)
          .takeRetainedValue())
      return (true, [])
    }
    // Reported after the lock, which a monitor that sends through this
    // input would take again (the target is published by now, so such a
    // send goes to the system).
    core.reportRefusedByBuffer(refused)
    return replacedOne
  }
}

/// What an ``Input``'s lock guards.
struct InputBinding<Event: Sendable>: Sendable {
  /// Events sent before the first binding.
  var pending: [Event] = []
  /// The targets of earlier bindings. A sender on another thread may be
  /// delivering through one without retaining it (``Input/send(_:isolation:)``),
  /// so a replaced target lives as long as the input.
  var replacedTargets: [InputTarget<Event>] = []
}

/// Where a bound ``Input`` delivers: a closure into its system, built where
/// the system's types are concrete.
@usableFromInline
final class InputTarget<Event: Sendable>: Sendable {
  @usableFromInline let deliver: @Sendable (Event, _ callerIsMainActor: Bool) -> Void

  @usableFromInline
  init(deliver: @escaping @Sendable (Event, Bool) -> Void) {
    self.deliver = deliver
  }
}
