// A cut-down copy of FeedbackLoop's lifts through event cases (the reducers
// alone), compiled as a module of its own, as the library is.
//
// -D FORCED_ENTRY: the lift's reduction is forced inline (0.1.0 at 3c3e6cb).
// Otherwise, as the library does now: the entry (`reduceReportingDiscards`)
// is plain `@inlinable`, and only the levels (`reduceAsChild`) are forced.

public protocol EventCase<Parent, Child>: Sendable {
  associatedtype Parent: Sendable
  associatedtype Child: Sendable
  func extract(_ parent: Parent) -> Child?
}

public protocol FeatureProtocol<State, Event>: Sendable {
  associatedtype State: Sendable
  associatedtype Event: Sendable
  func reduceReportingDiscards(_ state: inout State, _ event: Event) -> String?
  func reduceAsChild(_ state: inout State, _ event: Event) -> String?
}

extension FeatureProtocol {
  @inlinable @inline(__always)
  public func reduceAsChild(_ state: inout State, _ event: Event) -> String? {
    reduceReportingDiscards(&state, event)
  }

  @inlinable
  public func lifted<Parent: Sendable, Case: EventCase>(
    state path: WritableKeyPath<Parent, State> & Sendable, event: Case
  ) -> LiftedFeature<Self, Parent, Case> where Case.Child == Event {
    LiftedFeature(child: self, path: path, eventCase: event)
  }
}

public struct Feature<State: Sendable, Event: Sendable>: FeatureProtocol {
  @usableFromInline let body: @Sendable (inout State, Event) -> String?

  public init(_ reduce: @escaping @Sendable (inout State, Event) -> Void) {
    self.body = { state, event in
      reduce(&state, event)
      return nil
    }
  }

  @inlinable @inline(__always)
  public func reduceReportingDiscards(_ state: inout State, _ event: Event) -> String? {
    body(&state, event)
  }
}

public struct LiftedFeature<Child: FeatureProtocol, Parent: Sendable, Case: EventCase>:
  FeatureProtocol
where Case.Child == Child.Event {
  @usableFromInline let child: Child
  @usableFromInline let offset: Int?
  @usableFromInline let throughKeyPath: (@Sendable (inout Parent, Child.Event) -> String?)?
  @usableFromInline let eventCase: Case

  @inlinable
  init(child: Child, path: WritableKeyPath<Parent, Child.State> & Sendable, eventCase: Case) {
    self.child = child
    self.eventCase = eventCase
    let offset = MemoryLayout<Parent>.offset(of: path)
    self.offset = offset
    if offset == nil {
      self.throughKeyPath = { state, childEvent in
        child.reduceReportingDiscards(&state[keyPath: path], childEvent)
      }
    } else {
      self.throughKeyPath = nil
    }
  }

  #if FORCED_ENTRY
    @inlinable @inline(__always)
    public func reduceReportingDiscards(_ state: inout Parent, _ event: Case.Parent) -> String? {
      reduceAsChild(&state, event)
    }
  #else
    @inlinable
    public func reduceReportingDiscards(_ state: inout Parent, _ event: Case.Parent) -> String? {
      reduceAsChild(&state, event)
    }
  #endif

  @inlinable @inline(__always)
  public func reduceAsChild(_ state: inout Parent, _ event: Case.Parent) -> String? {
    guard let childEvent = eventCase.extract(event) else { return nil }
    guard let offset else { return throughKeyPath!(&state, childEvent) }
    return withUnsafeMutablePointer(to: &state) { parent in
      child.reduceAsChild(
        &(UnsafeMutableRawPointer(parent) + offset).assumingMemoryBound(to: Child.State.self)
          .pointee, childEvent)
    }
  }
}
