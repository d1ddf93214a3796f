import CFeedbackLoopShims

/// A handle that imperative code sends events through: a button's action, a
/// notification observer, a delegate callback (G8).
///
/// Bind it to a system with ``Feedback/input(_:name:fileID:line:)``. Events
/// sent before the system starts are kept and delivered, in order, when it
/// does; events sent after it stopped are dropped. An input binds to one
/// system only.
///
/// Sending through an input costs what ``System/send(_:)`` costs: no task,
/// no hop, no allocation.
///
/// ```swift
/// final class CounterViewController {
///   let buttons = Input<Counter.Event>()
///   lazy var system = System(initial: 0, reduce: Counter.reduce, feedbacks: [.input(buttons)])
///   func plusTapped() { buttons.send(.increment) }
/// }
/// ```
public final class Input<Event: Sendable>: @unchecked Sendable {
  // Sendable: `target` is an atomic cell written once; `pending` and the
  // binding are guarded by `lock`.
  private let target = fl_atomic_pointer_create()
  private let lock = Lock()
  private var pending: [Event] = []

  /// A new input, not bound to any system yet.
  public init() {}

  deinit {
    if let sink = fl_atomic_pointer_load(target) {
      Unmanaged<EventSink<Event>>.fromOpaque(sink).release()
    }
    fl_atomic_pointer_destroy(target)
  }

  /// Sends `event` to the bound system, or keeps it until one is bound.
  ///
  /// Called on the main actor, a send to a main-actor system has reduced
  /// before it returns (`caller` is filled in by the compiler).
  public func send(_ event: Event, isolation caller: isolated (any Actor)? = #isolation) {
    if let sink = fl_atomic_pointer_load(target) {
      Unmanaged<EventSink<Event>>.fromOpaque(sink).takeUnretainedValue()
        .receive(event, from: .external, callerIsMainActor: caller === MainActor.shared)
      return
    }
    lock.lock()
    if let sink = fl_atomic_pointer_load(target) {
      lock.unlock()
      Unmanaged<EventSink<Event>>.fromOpaque(sink).takeUnretainedValue()
        .receive(event, from: .external, callerIsMainActor: caller === MainActor.shared)
      return
    }
    pending.append(event)
    lock.unlock()
  }

  /// Binds to `sink`; returns `false` if bound already. The events kept so
  /// far go first, through the system's shared queue, so that a sender's
  /// events stay in order across the binding.
  func bind<State: Sendable>(to core: SystemCore<State, Event>) -> Bool {
    lock.lock()
    defer { lock.unlock() }
    let retained = Unmanaged.passRetained(core as EventSink<Event>)
    guard fl_atomic_pointer_store_if_null(target, retained.toOpaque()) else {
      retained.release()
      return false
    }
    core.enqueueShared(pending)
    pending = []
    return true
  }
}
