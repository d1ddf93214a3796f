/// A feedback's per-state handler, linked to the next one.
///
/// The loop calls every handler after every reduction, so how it reaches
/// them matters: an array of closures stores them at the most general
/// abstraction (a generic thunk around each, called unspecialized) and
/// retains and releases each closure per call. A linked object whose
/// closure is a `let` is called through a reference the loop does not
/// retain (`Unmanaged`), with no thunk but the specialized one made where
/// the closure was built. The system keeps the links alive in an array.
@usableFromInline
final class StateLink<State> {
  @usableFromInline let call: (State) -> Void
  @usableFromInline var next: Unmanaged<StateLink>?

  @usableFromInline
  init(_ call: @escaping (State) -> Void) {
    self.call = call
  }
}

/// A feedback's per-event handler, linked to the next one; see ``StateLink``.
@usableFromInline
final class EventLink<State, Event> {
  @usableFromInline let call: (Event, State) -> Void
  @usableFromInline var next: Unmanaged<EventLink>?

  @usableFromInline
  init(_ call: @escaping (Event, State) -> Void) {
    self.call = call
  }
}

extension Array where Element: AnyObject {
  /// Links each element to the next through `link`; returns the first.
  @usableFromInline
  func linked(_ link: (Element, Unmanaged<Element>?) -> Void) -> Unmanaged<Element>? {
    var next: Unmanaged<Element>?
    for element in reversed() {
      link(element, next)
      next = Unmanaged.passUnretained(element)
    }
    return next
  }
}
