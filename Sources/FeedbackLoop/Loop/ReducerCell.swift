/// A system's reducer, in an object that the core holds by hand.
///
/// The core lets the reducer go when the system stops: an ``Input`` may
/// keep the core for as long as the input lives (its target holds the core
/// so that a send through it costs no reference counting), and what the
/// reducer captures must not live that long (G9). A closure in a `var` of
/// the core would be retained and released around every call, since the
/// call may write the field; a `let` closure in this object, reached
/// through an unretained reference, costs one load more and no reference
/// counting, as the feedbacks' handlers do (``StateLink``).
@usableFromInline
final class ReducerCell<State, Event>: Sendable {
  @usableFromInline let reduce: @Sendable (inout State, Event) -> Void

  @usableFromInline
  init(_ reduce: @escaping @Sendable (inout State, Event) -> Void) {
    self.reduce = reduce
  }
}
