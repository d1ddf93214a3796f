#if canImport(Combine)
  import Combine
#elseif canImport(OpenCombine)
  import OpenCombine
#endif

#if canImport(Combine) || canImport(OpenCombine)
  /// A weak reference to a Combine subject, which `@Sendable` closures (a
  /// core observer, a store's release handler) send to: the subject lives as
  /// long as its subscribers and the publisher handed out hold it.
  final class SubjectBox<Wrapped: Subject & AnyObject>: @unchecked Sendable where Wrapped.Failure == Never {
    // Sendable: `subject` is set in `init` and never written again; loading a
    // weak reference is atomic; and a Combine subject may be sent to from any
    // thread: Combine's and OpenCombine's subjects guard their state with a
    // lock (the senders here are serial anyway: one system's loop, or the
    // main actor).
    private weak var subject: Wrapped?

    init(_ subject: Wrapped) { self.subject = subject }

    /// Whether the subject is still alive.
    var isAlive: Bool { subject != nil }

    /// Sends `value`; returns `false` if the subject is gone.
    func send(_ value: Wrapped.Output) -> Bool {
      guard let subject else { return false }
      subject.send(value)
      return true
    }

    /// Completes the subject, if it is still alive.
    func finish() {
      subject?.send(completion: .finished)
    }
  }
#endif
