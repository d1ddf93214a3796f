/// The state a ``From`` block matched, as its transitions see it.
///
/// `From(VolumeState.self) { state in ... }` gives its body a `Matched`
/// rather than the state itself, so that the body can be evaluated once,
/// when the system starts, and read again by the diagrams without any state.
/// Read it inside a transition's target, where it holds the state being
/// left: its properties directly (`state.value`), the whole value by calling
/// it (`state()`).
///
/// ```swift
/// From(VolumeState.self) { state in
///   On(IncreaseEvent.self, transitionTo: VolumeState(value: state.value + 1))
/// }
/// From(.case("loading", \Phase.loading)) { page in
///   On(.case("dataLoaded", \Action.dataLoaded), transitionTo: .case("loaded")) { data in
///     .loaded(page: page(), data: data)
///   }
/// }
/// ```
///
/// A `Matched` holds a value only while a transition of its block runs.
/// Reading it elsewhere (in the body itself, outside an `On`'s target, or
/// from a closure kept for later) is a programming error that stops the
/// program with a message saying so.
@dynamicMemberLookup
public struct Matched<Value: Sendable>: Sendable {
  @usableFromInline let box: MatchedBox<Value>

  @inlinable
  init(box: MatchedBox<Value>) {
    self.box = box
  }

  /// The matched value.
  @inlinable
  public func callAsFunction() -> Value {
    guard let value = box.value else {
      fatalError(
        "FeedbackLoopDeclarative: a From block's state was read outside a transition's target; "
          + "read it only inside On(..., transitionTo: ...)")
    }
    return value
  }

  /// A property of the matched value.
  @inlinable
  public subscript<Property>(dynamicMember keyPath: KeyPath<Value, Property>) -> Property {
    self()[keyPath: keyPath]
  }
}

/// Where a ``Matched`` finds its value while a transition runs.
///
/// Each running system compiles its transitions into a table of its own,
/// with boxes of its own; only that system's reducer writes and reads them.
@usableFromInline
final class MatchedBox<Value: Sendable>: @unchecked Sendable {
  // Sendable: a box belongs to the transition table of one running system,
  // and only that system's reducer touches it. The core runs a system's
  // reducer one event at a time, on the thread that owns the loop (G2), so
  // accesses never overlap, and the control word's acquire and release,
  // which hand the loop from thread to thread, order them. A table compiled
  // for a diagram never writes its boxes.
  // Unchecked: the reducer is the only one to touch it, one event at a
  // time (see above), so the runtime's exclusivity check on every read and
  // write would find nothing.
  @usableFromInline @exclusivity(unchecked) var value: Value?

  @inlinable
  init() {}
}
