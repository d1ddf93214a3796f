/// A feature lifted into a parent through a stored property and an
/// ``EventCase``: the child's reducer runs on the child's state, found at
/// the property's byte offset, for the parent events that hold a child
/// event; its feedbacks are lifted as
/// ``LiftableFeedback/lifted(state:event:name:)`` lifts them.
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

  /// The feature lifted (`package`: the tests read each level).
  @usableFromInline package let child: Child
  @usableFromInline let path: WritableKeyPath<Parent, Child.State> & Sendable
  /// The byte offset of the child's state in the parent's, or `nil` for a
  /// property that has none (a computed or observed one, a class's).
  @usableFromInline package let offset: Int?
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
    let offset = MemoryLayout<Parent>.offset(of: path)
    self.offset = offset
    if offset == nil {
      self.throughKeyPath = { state, childEvent in child.reduceReportingDiscards(&state[keyPath: path], childEvent) }
    } else {
      self.throughKeyPath = nil
    }
  }

  /// The child's name.
  @inlinable
  public var name: String { child.name }

  /// The child's feedbacks, lifted.
  @inlinable
  public var feedbacks: [LiftableFeedback<Parent, Case.Parent>] {
    let (path, event, name) = (self.path, eventCase, child.name)
    return child.feedbacks.map { $0.lifted(state: path, event: event, name: name) }
  }

  /// This lift as a ``Feature``: its reducer one closure around this lift's
  /// reduction. At a stored property, the reducer also carries the way to
  /// the child's state, so that lifting the feature
  /// again through closures, level after level, goes to the child in one
  /// path: one call a level, the levels' offsets summed once.
  @inlinable
  public var feature: Feature<Parent, Case.Parent> {
    Feature(name: name, reducer: reducer, feedbacks: feedbacks)
  }

  /// The reducer of ``feature``, with its `ChildReach` where this lift is
  /// at a stored property.
  @inlinable
  var reducer: Reducer<Parent, Case.Parent> {
    guard let offset else { return composedReducer }
    let eventCase = self.eventCase
    if let inner = (child as? Feature<Child.State, Child.Event>)?.reducer.reach {
      // The child is a lift through closures: one more extraction in front
      // of its path, this lift's offset added to its own.
      let innerReduce = inner.reduce
      return ChildReach<Parent, Case.Parent>(offset: offset + inner.offset) { event, reached in
        guard let childEvent = eventCase.extract(event) else { return .notForChild }
        return innerReduce(childEvent, reached)
      }.reducer
    }
    let box = ComposedFeatureBox(child)
    let reach = ChildReach<Parent, Case.Parent>(offset: offset) { event, reached in
      guard let childEvent = eventCase.extract(event) else { return .notForChild }
      // `reached` is this lift's offset into a `Parent`: the child's state.
      return .reduced(
        box.composed.reduceAsChild(&reached.assumingMemoryBound(to: Child.State.self).pointee, childEvent))
    }
    return Reducer(body: composedReducer.body, reach: reach)
  }

  /// Extracts the child's event, and has the child reduce it in place: the
  /// whole chain below, which ``reduceAsChild(_:_:)`` inlines level into
  /// level.
  @inlinable
  public func reduceReportingDiscards(_ state: inout Parent, _ event: Case.Parent) -> String? {
    reduceAsChild(&state, event)
  }

  /// One level of a chain of lifts: extracts the child's event, and has the
  /// child reduce it in place, at this lift's offset. Forced inline, so that
  /// a chain of lifts is one reduction whatever its depth; the chain starts
  /// at ``reduceReportingDiscards(_:_:)``, which is not forced: forced,
  /// every caller inlined the whole chain, and a caller with a loop of a few
  /// such chains crashed Swift 6.3's optimizer in release builds (Mem2Reg,
  /// "too many/large bit fields allocated in function"; the reproducer is
  /// in `Benchmarks/CompilerCrash`).
  @inlinable @inline(__always)
  public func reduceAsChild(_ state: inout Parent, _ event: Case.Parent) -> String? {
    guard let childEvent = eventCase.extract(event) else { return nil }
    guard let offset else { return throughKeyPath!(&state, childEvent) }
    return withUnsafeMutablePointer(to: &state) { parent in
      // `offset` is `MemoryLayout<Parent>.offset(of: path)`: the child's
      // state is stored there, inside `state`, for the length of this call.
      child.reduceAsChild(
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
    let (path, event, name) = (self.path, eventCase, child.name)
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
/// ``LiftableFeedback/lifted(children:event:name:)`` lifts them.
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
    let (path, event, name) = (self.path, eventCase, child.name)
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

// The three lifts of a feature: the one place that says what each shape of
// child is (a stored child, an optional one, children by id), for the
// feature's reducer and, through `LiftableFeedback`, its feedbacks.
extension FeatureProtocol {
  /// This feature, as the child at `state` of a parent whose events hold
  /// its own as `event` says. Its feedbacks are named after it
  /// (`search/query@Search.swift:12`). Lifted again, the levels compose
  /// into one reducer that the compiler inlines; ``feature`` makes it a
  /// ``Feature`` again, to store or to combine with
  /// `Feature.combine(name:_:)`.
  ///
  /// `event` is any ``EventCase``: a type of your own, or an ``EventPath``
  /// made of two closures.
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

// What each shape of child does with one event, for the three lifts above
// (and, through them, for the lifts of a `Reducer`).

/// Runs `body` on the property at `path` of `root`, in place: through its
/// byte offset where the key path has one (a stored property of a struct),
/// which costs nothing; through the key path otherwise, which goes through
/// the runtime's generic projection on every event.
@inlinable
func withStoredProperty<Root, Value, Result>(
  _ root: inout Root, _ path: WritableKeyPath<Root, Value>, offset: Int?, _ body: (inout Value) -> Result
) -> Result {
  guard let offset else { return body(&root[keyPath: path]) }
  return withUnsafeMutablePointer(to: &root) { pointer in
    // `offset` is `MemoryLayout<Root>.offset(of: path)`: the property is
    // stored there, inside `root`, for the length of this call.
    body(&UnsafeMutableRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee)
  }
}

/// Runs `body` on the optional child at `path` of `root`, in place, and
/// returns why the event was discarded: the child's own reason, or that it
/// is `nil`. Through a computed or observed property (no `offset`) the
/// optional is read first: writing its `nil` back would run the setter and
/// observers for an event that changes nothing.
@inlinable
func reduceOptionalChild<Root, Child, ChildEvent>(
  _ root: inout Root, _ path: WritableKeyPath<Root, Child?>, offset: Int?, event: ChildEvent,
  _ body: (inout Child) -> String?
) -> String? {
  let reached: String??
  if offset == nil, root[keyPath: path] == nil {
    reached = .none
  } else {
    reached = withStoredProperty(&root, path, offset: offset) { optional -> String?? in
      guard optional != nil else { return .none }
      return .some(body(&optional!))
    }
  }
  guard let discard = reached else { return "\(path) is nil: \(event) has no child to reach" }
  return discard
}

/// Runs `body` on child `id` of the children at `path` of `root`, in place,
/// and returns why the event was discarded: the child's own reason, or that
/// there is no such child. Through a computed or observed property (no
/// `offset`) an id that is not there is read, not written back, for the
/// same reason as ``reduceOptionalChild(_:_:offset:event:_:)``.
@inlinable
func reduceChild<Root, ID: Hashable, Child, ChildEvent>(
  _ root: inout Root, _ path: WritableKeyPath<Root, TrackedDictionary<ID, Child>>, offset: Int?, id: ID,
  event: ChildEvent, _ body: (inout Child) -> String?
) -> String? {
  let present = offset != nil || root[keyPath: path][id] != nil
  let reached =
    present
    ? withStoredProperty(&root, path, offset: offset) { children in children.modifyValue(forKey: id, body) } : nil
  guard let discard = reached else { return "no child \(id) in \(path): \(event) has no child to reach" }
  return discard
}
