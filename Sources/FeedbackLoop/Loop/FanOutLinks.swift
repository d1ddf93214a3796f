// The links the fan-out calls after every reduction, in order: the
// feedbacks' state handlers (`StateLink`), their event handlers
// (`EventLink`), then the observers (`StateObserver`); every chain has
// the one shape `Linked`.

/// A feedback's per-state handler, linked to the next one.
///
/// The loop calls every handler after every reduction, so how it reaches
/// them matters: an array of closures stores them at the most general
/// abstraction (a generic thunk around each, called unspecialized) and
/// retains and releases each closure per call. A linked object whose
/// closure is a `let` is called through a reference the loop does not
/// retain (`Unmanaged`), with no thunk but the specialized one made where
/// the closure was built. The chain retains its links itself (see
/// ``Linked``): an array to keep them alive would cost an idle system one
/// more allocation (the idle-systems benchmark).
@usableFromInline
final class StateLink<State>: Linked {
  // `next` is unchecked for exclusivity, like the loop's own fields: only
  // the owning thread touches it, and a dynamic check per handler per state
  // cost more than the handlers of the hundred-feedbacks benchmark.
  @usableFromInline let call: StateHandler<State>
  @exclusivity(unchecked) @usableFromInline var next: Unmanaged<StateLink>?

  @usableFromInline
  init(_ call: @escaping StateHandler<State>) {
    self.call = call
  }
}

/// A feedback's per-state handler: the state, and where the system stores
/// it, valid for the call only.
///
/// A handler that reads parts of the state at known offsets (a lifted
/// feedback's path, `LeafPath` and `ByIDPath`) reads them through `stored`:
/// `withUnsafePointer(to: state)` copies the whole value to the stack
/// first, and a 170-byte state copied by each such handler of each event
/// was a sixth of the mixed-levels benchmark (W7bmix-10). Nothing writes
/// the storage while the handlers run: only the loop's thread writes it, in
/// the reducer, between two passes. One closure with both, rather than two
/// kinds of handler: a link that chose between two closures (an enum)
/// retained and released the chosen one per call (a fifth of the lone
/// child benchmark W7single's profile), and a second closure field would
/// make the link a larger allocation (the idle-systems benchmark).
@usableFromInline
typealias StateHandler<State> = (_ state: State, _ stored: UnsafePointer<State>) -> Void

/// A feedback's per-event handler, linked to the next one; see ``StateLink``.
@usableFromInline
final class EventLink<State, Event>: Linked {
  @usableFromInline let call: EventHandler<State, Event>
  @exclusivity(unchecked) @usableFromInline var next: Unmanaged<EventLink>?

  @usableFromInline
  init(_ call: @escaping EventHandler<State, Event>) {
    self.call = call
  }
}

/// A feedback's per-event handler: the event, the state it produced, and
/// where the system stores that state, valid for the call only (see
/// ``StateHandler``).
@usableFromInline
typealias EventHandler<State, Event> = (_ event: Event, _ state: State, _ stored: UnsafePointer<State>) -> Void

/// A callback that receives every state of a system, in order, on the loop's
/// thread, and a way to tell it the system stopped: the last chain the
/// fan-out walks, after the feedbacks' handlers. Added, removed and told
/// the system stopped by the core (StateObservers.swift, `Observing/`).
@usableFromInline
final class StateObserver<State: Sendable>: @unchecked Sendable, Linked {
  // Sendable: the fields are immutable and Sendable, but `next`, which only
  // the loop's owning thread reads and writes (SystemCore).
  @usableFromInline let id: UInt64
  @usableFromInline let onState: @Sendable (State) -> Void
  @usableFromInline let stopped: @Sendable () -> Void
  /// The next observer, retained by hand by this one (``Linked``): the
  /// chain's first link is the core's `firstObserver`.
  @exclusivity(unchecked) @usableFromInline var next: Unmanaged<StateObserver>?

  @usableFromInline
  init(id: UInt64, onState: @escaping @Sendable (State) -> Void, stopped: @escaping @Sendable () -> Void) {
    self.id = id
    self.onState = onState
    self.stopped = stopped
  }
}

/// An object in a chain whose links retain the next one by hand.
@usableFromInline
protocol Linked: AnyObject {
  var next: Unmanaged<Self>? { get set }
}

// Every link of a chain is retained once, by the chain (its `first`, or
// the `next` of the link before): reading a link unretained
// (`takeUnretainedValue`) is safe while it is in the chain, and only
// `remove` and `releaseChain` give that reference back.
extension Linked {
  /// Retains `link` and appends it to the chain that starts at `first`.
  /// Walks the chain: links are added while a system is made, not per event.
  @usableFromInline
  static func append(_ link: Self, to first: inout Unmanaged<Self>?) {
    let retained = Unmanaged.passRetained(link)
    guard var last = first else {
      first = retained
      return
    }
    while let next = last.takeUnretainedValue().next { last = next }
    last.takeUnretainedValue().next = retained
  }

  /// Calls `body` with each link of the chain that starts at `first`, in
  /// order. For the rare paths; the per-event walk is written out where it
  /// runs, on unretained references.
  static func forEach(_ first: Unmanaged<Self>?, _ body: (Self) -> Void) {
    var link = first
    while let current = link {
      body(current.takeUnretainedValue())
      link = current.takeUnretainedValue().next
    }
  }

  /// Unlinks the first link that matches, and hands it back with the
  /// chain's reference to it.
  static func remove(from first: inout Unmanaged<Self>?, where matches: (Self) -> Bool) -> Self? {
    var previous: Unmanaged<Self>?
    var link = first
    while let current = link {
      let object = current.takeUnretainedValue()
      if matches(object) {
        if let previous { previous.takeUnretainedValue().next = object.next } else { first = object.next }
        object.next = nil
        return current.takeRetainedValue()
      }
      previous = current
      link = object.next
    }
    return nil
  }

  /// Releases every link of the chain that starts at `first`, and empties it.
  static func releaseChain(_ first: inout Unmanaged<Self>?) {
    var link = first
    first = nil
    while let current = link {
      link = current.takeUnretainedValue().next
      current.release()
    }
  }
}
