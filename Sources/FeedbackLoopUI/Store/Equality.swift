/// `==` for `T`, when `T` is `Equatable` at run time; `nil` otherwise.
///
/// A store dedupes its states with it, so that one generic type serves
/// `Equatable` states and others without an overload per constraint. It is
/// looked up once per store, and so is the cast of `E`'s `==` to a function
/// of `T` (the same type): each comparison is then one call of `==`, with no
/// cast per state. The states are passed by address.
///
/// It is inlinable so that a store made in inlinable code for a concrete
/// state (`Store(initial:reduceReturning:)`) folds the cast and gets a `==`
/// specialized for its state, compared in place.
@inlinable
func equality<T>(of type: T.Type) -> ((UnsafePointer<T>, UnsafePointer<T>) -> Bool)? {
  guard let equatable = type as? any Equatable.Type else { return nil }
  return equality(of: type, as: equatable)
}

@inlinable
func equality<T, E: Equatable>(
  of _: T.Type, as _: E.Type
) -> (UnsafePointer<T>, UnsafePointer<T>) -> Bool {
  // `T` is `E` (the cast above succeeded), so a `T` is bound as an `E`; the
  // states are compared where they are, with no copy and no cast per state.
  { lhs, rhs in
    UnsafeRawPointer(lhs).assumingMemoryBound(to: E.self).pointee
      == UnsafeRawPointer(rhs).assumingMemoryBound(to: E.self).pointee
  }
}
