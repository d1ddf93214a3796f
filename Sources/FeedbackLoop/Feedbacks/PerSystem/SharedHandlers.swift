import CFeedbackLoopShims

/// The handlers that several feedbacks of one system share
/// (``ElementWatchers``), found by key while the system's feedbacks are made.
///
/// A system needs them only while it is made, so they are not one of its
/// fields, which every idle system would carry (the idle-systems benchmark): the making runs inside
/// ``whileMaking(_:)``, which gives the calling thread a context of its own
/// (made at the first ask) and drops it after. The feedbacks are made
/// synchronously, on the thread that makes the system, and a system made
/// by one of them gets a context of its own, the outer one being restored
/// after.
@usableFromInline
final class SharedHandlers {
  @usableFromInline var byKey: [AnyKeyPath: AnyObject] = [:]
  /// The objects of ``Feedback/init(name:sharingPerSystem:_:feedback:)``,
  /// by the identity of their key.
  var byObject: [ObjectIdentifier: AnyObject] = [:]

  @usableFromInline
  init() {}

  /// The context of the system that the calling thread is making.
  @usableFromInline
  static func current() -> SharedHandlers {
    // The thread's context holds one reference, taken here when it is made
    // and given back by `whileMaking`: reading it unretained is safe meanwhile.
    if let context = fl_build_context() {
      return Unmanaged<SharedHandlers>.fromOpaque(context).takeUnretainedValue()
    }
    let made = SharedHandlers()
    fl_set_build_context(Unmanaged.passRetained(made).toOpaque())
    return made
  }

  /// Runs `makeFeedbacks` with an empty context, then drops it.
  static func whileMaking(_ makeFeedbacks: () -> Void) {
    let outer = fl_build_context()
    fl_set_build_context(nil)
    makeFeedbacks()
    // The reference `current()` took for the context, given back.
    if let context = fl_build_context() { Unmanaged<SharedHandlers>.fromOpaque(context).release() }
    fl_set_build_context(outer)
  }
}
