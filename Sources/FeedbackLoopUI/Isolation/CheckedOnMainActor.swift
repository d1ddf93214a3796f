/// A function isolated to the main actor, as a plain function, for a
/// synchronous context that the compiler does not know to be on the main
/// actor and that checks it with `MainActor.preconditionIsolated` before
/// each call.
///
/// The store calls it for each state the core delivers: a
/// `preconditionIsolated` (for the store's message) followed by
/// `MainActor.assumeIsolated` would ask the runtime twice per event, and a
/// non-escaping closure run through `withoutActuallyEscaping` allocates and
/// frees its context on every call. The function is converted once, when
/// the store is made; a closure that captures nothing has no context. An
/// `@MainActor` function and a plain one have the same representation
/// (isolation is a compile-time property of the type), so the cast only
/// removes the attribute.
@inlinable
func checkedOnMainActor<A, B>(
  _ body: @escaping @Sendable @MainActor (A, B) -> Void
) -> @Sendable (A, B) -> Void {
  // Safe: the two function types have one representation (above), and
  // every caller checks `MainActor.preconditionIsolated` before each call,
  // so the main-actor function still runs only on the main actor.
  unsafeBitCast(body, to: (@Sendable (A, B) -> Void).self)
}
