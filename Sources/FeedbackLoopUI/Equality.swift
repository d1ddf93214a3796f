/// `==` for `T`, when `T` is `Equatable` at run time; `nil` otherwise.
///
/// A store dedupes its states with it, so that one generic type serves
/// `Equatable` states and others without an overload per constraint. It is
/// looked up once per store, and so is the cast of `E`'s `==` to a function
/// of `T` (the same type): each comparison is then one call of `==`, with no
/// cast per state.
func equality<T>(of type: T.Type) -> ((T, T) -> Bool)? {
  guard let equatable = type as? any Equatable.Type else { return nil }
  return equality(of: type, as: equatable)
}

private func equality<T, E: Equatable>(of _: T.Type, as _: E.Type) -> (T, T) -> Bool {
  let equal: (E, E) -> Bool = { lhs, rhs in lhs == rhs }
  if let equal = equal as? (T, T) -> Bool { return equal }
  return { lhs, rhs in (lhs as! E) == (rhs as! E) }
}
