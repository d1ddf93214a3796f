/// Runs `body`, which is isolated to the main actor, from a synchronous
/// context that the compiler does not know to be, once the caller has
/// checked with `MainActor.preconditionIsolated` that it is.
///
/// The store calls it for each state the core delivers: a
/// `preconditionIsolated` (for the store's message) followed by
/// `MainActor.assumeIsolated` would ask the runtime twice per event. An
/// `@MainActor` function and a plain one have the same representation
/// (isolation is a compile-time property of the type), so the cast only
/// removes the attribute.
@inlinable
func runCheckedOnMainActor<T>(_ body: @MainActor () -> T) -> T {
  withoutActuallyEscaping(body) { body in
    unsafeBitCast(body, to: (() -> T).self)()
  }
}
