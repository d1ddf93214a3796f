/// A feature lifted into a parent through a stored property and an
/// ``EventCase``: the child's reducer runs on the child's state, found at
/// the property's byte offset, for the parent events that hold a child
/// event; its feedbacks are lifted as ``Feature/lifted(state:event:)``
/// lifts them.
///
/// Made by ``FeatureProtocol/lifted(state:event:)``; lift it again, combine
/// it, or run it: its type holds every level, so the compiler inlines them
/// into one reducer.
///
/// ```swift
/// let search = Search.feature.lifted(state: \App.State.search, event: ToSearch())
/// let system = System(initial: App.State(), feature: search)
/// ```
public struct LiftedFeature<Child: FeatureProtocol, Parent: Sendable, Case: EventCase>: FeatureProtocol
where Case.Child == Child.Event {
  public typealias State = Parent
  public typealias Event = Case.Parent

  @usableFromInline let child: Child
  @usableFromInline let path: WritableKeyPath<Parent, Child.State> & Sendable
  /// The byte offset of the child's state in the parent's, or `nil` for a
  /// property that has none (a computed or observed one, a class's).
  @usableFromInline let offset: Int?
  /// Where `offset` is `nil`: the reduction through the key path, made once
  /// here. A closure rather than a method, so that the inlined chain calls
  /// it with its context alone: a method out of line took the whole chain
  /// (300 bytes at ten levels), copied on every event, and inlined at every
  /// level, the slow paths of a deep chain grew until the compiler crashed
  /// in release builds (Swift 6.3, Mem2Reg).
  @usableFromInline let throughKeyPath: (@Sendable (inout Parent, Child.Event) -> String?)?
  @usableFromInline let eventCase: Case

  @inlinable
  init(child: Child, path: WritableKeyPath<Parent, Child.State> & Sendable, eventCase: Case) {
    self.child = child
    self.path = path
    self.eventCase = eventCase
    self.offset = MemoryLayout<Parent>.offset(of: path)
    self.throughKeyPath =
      offset != nil
      ? nil
      : { state, childEvent in child.reduceReportingDiscards(&state[keyPath: path], childEvent) }
  }

  /// The child's name.
  @inlinable
  public var name: String { child.name }

  /// The child's feedbacks, lifted.
  @inlinable
  public var feedbacks: [LiftableFeedback<Parent, Case.Parent>] {
    let (path, event, name) = (self.path, EventPath(eventCase), child.name)
    return child.feedbacks.map { $0.lifted(state: path, event: event, name: name) }
  }

  /// Extracts the child's event, and has the child reduce it in place.
  /// Each level of a chain of lifts adds its own offset; the compiler,
  /// which sees every level's type, inlines the chain into one reducer.
  @inlinable @inline(__always)
  public func reduceReportingDiscards(_ state: inout Parent, _ event: Case.Parent) -> String? {
    guard let childEvent = eventCase.extract(event) else { return nil }
    guard let offset else { return throughKeyPath!(&state, childEvent) }
    return withUnsafeMutablePointer(to: &state) { parent in
      // `offset` is `MemoryLayout<Parent>.offset(of: path)`: the child's
      // state is stored there, inside `state`, for the length of this call.
      child.reduceReportingDiscards(
        &(UnsafeMutableRawPointer(parent) + offset).assumingMemoryBound(to: Child.State.self).pointee, childEvent)
    }
  }
}

/// A feature lifted into a parent through an optional stored property and
/// an ``EventCase``: the child runs only while its state exists. An event
/// for it while it is `nil` changes nothing and is reported as discarded
/// (``DiscardReason/noSuchChild(_:)``); its feedbacks' effects are
/// cancelled when the state goes, their late events dropped (G4).
///
/// ```swift
/// let player = Player.feature.lifted(optional: \App.State.player, event: ToPlayer())
/// ```
public struct OptionalLiftedFeature<Child: FeatureProtocol, Parent: Sendable, Case: EventCase>: FeatureProtocol
where Case.Child == Child.Event {
  public typealias State = Parent
  public typealias Event = Case.Parent

  @usableFromInline let child: Child
  @usableFromInline let path: WritableKeyPath<Parent, Child.State?> & Sendable
  /// The byte offset of the optional, or `nil` for a computed property.
  @usableFromInline let offset: Int?
  @usableFromInline let eventCase: Case

  @inlinable
  init(child: Child, path: WritableKeyPath<Parent, Child.State?> & Sendable, eventCase: Case) {
    self.child = child
    self.path = path
    self.offset = MemoryLayout<Parent>.offset(of: path)
    self.eventCase = eventCase
  }

  /// The child's name.
  @inlinable
  public var name: String { child.name }

  /// The child's feedbacks, lifted.
  @inlinable
  public var feedbacks: [LiftableFeedback<Parent, Case.Parent>] {
    let (path, event, name) = (self.path, EventPath(eventCase), child.name)
    return child.feedbacks.map { $0.lifted(optional: path, event: event, name: name) }
  }

  @inlinable
  public func reduceReportingDiscards(_ state: inout Parent, _ event: Case.Parent) -> String? {
    guard let childEvent = eventCase.extract(event) else { return nil }
    return reduceOptionalChild(&state, path, offset: offset, event: childEvent) {
      child.reduceReportingDiscards(&$0, childEvent)
    }
  }
}

/// A feature lifted into a parent as children by id in a
/// ``TrackedDictionary``, through a ``ChildEventCase``: each event reaches
/// the child it names, in O(1) of the number of children; an event for an
/// id that is not there changes nothing and is reported as discarded
/// (``DiscardReason/noSuchChild(_:)``). Its feedbacks are lifted as
/// ``Feature/lifted(children:event:)`` lifts them.
///
/// ```swift
/// let downloads = Download.feature.lifted(children: \App.State.downloads, event: ToDownload())
/// ```
public struct LiftedFeaturesByID<Child: FeatureProtocol, Parent: Sendable, Case: ChildEventCase>: FeatureProtocol
where Case.Child == Child.Event {
  public typealias State = Parent
  public typealias Event = Case.Parent

  @usableFromInline let child: Child
  @usableFromInline let path: WritableKeyPath<Parent, TrackedDictionary<Case.ID, Child.State>> & Sendable
  /// The byte offset of the dictionary, or `nil` for a computed property.
  @usableFromInline let offset: Int?
  @usableFromInline let eventCase: Case

  @inlinable
  init(
    child: Child, path: WritableKeyPath<Parent, TrackedDictionary<Case.ID, Child.State>> & Sendable,
    eventCase: Case
  ) {
    self.child = child
    self.path = path
    self.offset = MemoryLayout<Parent>.offset(of: path)
    self.eventCase = eventCase
    ChildrenBehindAccessors.warnIfCopiedPerEvent(path, offset: offset)
  }

  /// The child's name.
  @inlinable
  public var name: String { child.name }

  /// The child's feedbacks, lifted by id. A feature that already holds
  /// children by id cannot be lifted by id again (not supported yet): this
  /// traps with a message saying so.
  @inlinable
  public var feedbacks: [LiftableFeedback<Parent, Case.Parent>] {
    let (path, event, name) = (self.path, ChildEventPath(eventCase), child.name)
    return child.feedbacks.map { $0.liftedOrStopping(children: path, event: event, name: name) }
  }

  @inlinable
  public func reduceReportingDiscards(_ state: inout Parent, _ event: Case.Parent) -> String? {
    guard let (id, childEvent) = eventCase.extract(event) else { return nil }
    return reduceChild(&state, path, offset: offset, id: id, event: childEvent) {
      child.reduceReportingDiscards(&$0, childEvent)
    }
  }
}

extension FeatureProtocol {
  /// This feature, as the child at the stored property `state` of a parent
  /// whose events hold its own as `event` says. Lifted again, the levels
  /// compose into one reducer that the compiler inlines.
  ///
  /// ```swift
  /// Search.feature.lifted(state: \App.State.search, event: ToSearch())
  /// ```
  @inlinable
  public func lifted<Parent: Sendable, Case: EventCase>(
    state path: WritableKeyPath<Parent, State> & Sendable, event: Case
  ) -> LiftedFeature<Self, Parent, Case> where Case.Child == Event {
    LiftedFeature(child: self, path: path, eventCase: event)
  }

  /// This feature, as an optional child: its reducer runs only while its
  /// state exists, and its effects are cancelled when the state goes to
  /// `nil`, their late events dropped (G4).
  ///
  /// ```swift
  /// Player.feature.lifted(optional: \App.State.player, event: ToPlayer())
  /// ```
  @inlinable
  public func lifted<Parent: Sendable, Case: EventCase>(
    optional path: WritableKeyPath<Parent, State?> & Sendable, event: Case
  ) -> OptionalLiftedFeature<Self, Parent, Case> where Case.Child == Event {
    OptionalLiftedFeature(child: self, path: path, eventCase: event)
  }

  /// This feature, as children by id in a ``TrackedDictionary``: each event
  /// reaches the child it names; each child's feedbacks run for it alone;
  /// a removed child's effects are cancelled and their late events dropped.
  ///
  /// ```swift
  /// Download.feature.lifted(children: \App.State.downloads, event: ToDownload())
  /// ```
  @inlinable
  public func lifted<Parent: Sendable, Case: ChildEventCase>(
    children path: WritableKeyPath<Parent, TrackedDictionary<Case.ID, State>> & Sendable, event: Case
  ) -> LiftedFeaturesByID<Self, Parent, Case> where Case.Child == Event {
    LiftedFeaturesByID(child: self, path: path, eventCase: event)
  }
}
