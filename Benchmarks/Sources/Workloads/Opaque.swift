/// Returns `value` through a call the optimizer cannot see through, so that a
/// closure stays a closure (an indirect call) and a constant stays unknown.
@inline(never)
@_optimize(none)
public func opaque<T>(_ value: T) -> T {
  value
}
