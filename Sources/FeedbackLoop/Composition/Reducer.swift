/// A reducer as a value: the pure function `(inout State, Event) -> Void`,
/// ready to be combined with others over the same state and lifted into a
/// parent's state and event.
///
/// ```swift
/// let app = Reducer<App.State, App.Event>.combine(
///   Reducer(App.reduce),
///   Search.reducer.lifted(state: \.search, event: App.toSearch),
///   Player.reducer.lifted(optional: \.player, event: App.toPlayer),
///   Download.reducer.lifted(children: \.downloads, event: App.toDownload)
/// )
/// ```
///
/// A lifted reducer that receives an event for a child that does not exist
/// (an optional child that is `nil`, an id that is not in the collection)
/// leaves the state alone and says why; a system started with
/// ``System/init(initial:reducer:feedbacks:isolation:environment:monitor:caller:)``
/// reports it to its monitor as ``DiscardReason/noSuchChild(_:)``.
public struct Reducer<State: Sendable, Event: Sendable>: Sendable {
  /// Reduces, and returns why a part of the event was discarded, or `nil`.
  @usableFromInline let body: @Sendable (inout State, Event) -> String?
  /// For a reducer that only reaches a child through stored properties
  /// (``lifted(state:event:)`` at a stored property, again and again): the
  /// way to it, so that lifting it once more composes one path rather than
  /// wrapping one more reducer around it (the nested-lifts benchmark in BENCHMARKS.md).
  @usableFromInline let reach: ChildReach<State, Event>?

  @inlinable
  init(body: @escaping @Sendable (inout State, Event) -> String?, reach: ChildReach<State, Event>? = nil) {
    self.body = body
    self.reach = reach
  }

  /// A reducer that changes the state in place.
  ///
  /// ```swift
  /// let counter = Reducer<Int, Counter.Event> { count, event in
  ///   switch event {
  ///   case .increment: count += 1
  ///   case .decrement: count -= 1
  ///   }
  /// }
  /// ```
  @inlinable
  public init(_ reduce: @escaping @Sendable (inout State, Event) -> Void) {
    self.body = { state, event in
      reduce(&state, event)
      return nil
    }
    self.reach = nil
  }

  /// A reducer that returns the new state.
  ///
  /// ```swift
  /// let counter = Reducer<Int, Int>(reduceReturning: { count, step in count + step })
  /// ```
  @inlinable
  public init(reduceReturning reduce: @escaping @Sendable (State, Event) -> State) {
    self.body = { state, event in
      state = reduce(state, event)
      return nil
    }
    self.reach = nil
  }

  /// Reduces `event` into `state`.
  @inlinable
  public func reduce(_ state: inout State, _ event: Event) {
    _ = body(&state, event)
  }

  /// Reduces `event` into `state`, and returns why a part of it reached no
  /// child, or `nil` if nothing was discarded.
  @inlinable
  public func reduceReportingDiscards(_ state: inout State, _ event: Event) -> String? {
    body(&state, event)
  }

  /// The reducer as the function a ``System`` takes.
  @inlinable
  public var inPlace: @Sendable (inout State, Event) -> Void {
    let body = self.body
    return { state, event in _ = body(&state, event) }
  }

  /// Reducers over one state, run in order on each event: each sees the
  /// state the previous one left.
  ///
  /// ```swift
  /// let app = Reducer.combine(Reducer(App.reduce), search, player)
  /// ```
  @inlinable
  public static func combine(_ reducers: Reducer...) -> Reducer { combine(reducers) }

  /// Reducers over one state, run in order on each event.
  @inlinable
  public static func combine(_ reducers: [Reducer]) -> Reducer {
    switch reducers.count {
    case 0: return Reducer { _, _ in nil }
    case 1: return reducers[0]
    case 2:
      let (first, second) = (reducers[0].body, reducers[1].body)
      return Reducer { state, event in
        let firstDiscard = first(&state, event)
        let secondDiscard = second(&state, event)
        return Self.merged(firstDiscard, secondDiscard)
      }
    default:
      let bodies = reducers.map(\.body)
      return Reducer { state, event in
        var discards: String? = nil
        for body in bodies { discards = Self.merged(discards, body(&state, event)) }
        return discards
      }
    }
  }

  @inlinable
  static func merged(_ first: String?, _ second: String?) -> String? {
    switch (first, second) {
    case (nil, nil): nil
    case (let one?, nil), (nil, let one?): one
    case (let one?, let other?): "\(one); \(other)"
    }
  }

  /// This child reducer, lifted into a parent whose state holds the child's
  /// at `state` and whose events hold the child's as `event` says. Parent
  /// events that hold no child event leave the state alone.
  ///
  /// ```swift
  /// Search.reducer.lifted(state: \App.State.search, event: App.toSearch)
  /// ```
  @inlinable
  public func lifted<Parent: Sendable, ParentEvent: Sendable>(
    state path: WritableKeyPath<Parent, State> & Sendable,
    event: EventPath<ParentEvent, Event>
  ) -> Reducer<Parent, ParentEvent> {
    let (body, extract) = (self.body, event.extract)
    guard let offset = MemoryLayout<Parent>.offset(of: path) else {
      return Reducer<Parent, ParentEvent> { parent, parentEvent in
        guard let childEvent = extract(parentEvent) else { return nil }
        return body(&parent[keyPath: path], childEvent)
      }
    }
    let reach: ChildReach<Parent, ParentEvent>
    if let inner = self.reach {
      // The child is itself a lift: one more extraction in front of its
      // path, its offset added to this one's.
      let innerReach = inner.reduce
      reach = ChildReach(offset: offset + inner.offset) { parentEvent, child in
        guard let childEvent = extract(parentEvent) else { return .notForChild }
        return innerReach(childEvent, child)
      }
    } else {
      reach = ChildReach(offset: offset) { parentEvent, child in
        guard let childEvent = extract(parentEvent) else { return .notForChild }
        return .reduced(body(&child.assumingMemoryBound(to: State.self).pointee, childEvent))
      }
    }
    let (reduce, childOffset) = (reach.reduce, reach.offset)
    return Reducer<Parent, ParentEvent>(
      body: { parent, parentEvent in
        withUnsafeMutablePointer(to: &parent) { pointer in
          switch reduce(parentEvent, UnsafeMutableRawPointer(pointer) + childOffset) {
          case .notForChild: nil
          case .reduced(let discard): discard
          }
        }
      }, reach: reach)
  }

  /// This child reducer, lifted into a parent whose state holds the child's
  /// as an optional: the child runs only while its state exists. An event
  /// for the child while it is `nil` changes nothing and is reported as
  /// discarded (``DiscardReason/noSuchChild(_:)``).
  ///
  /// ```swift
  /// Player.reducer.lifted(optional: \App.State.player, event: App.toPlayer)
  /// ```
  @inlinable
  public func lifted<Parent: Sendable, ParentEvent: Sendable>(
    optional path: WritableKeyPath<Parent, State?> & Sendable,
    event: EventPath<ParentEvent, Event>
  ) -> Reducer<Parent, ParentEvent> {
    let (body, extract) = (self.body, event.extract)
    let offset = MemoryLayout<Parent>.offset(of: path)
    return Reducer<Parent, ParentEvent> { parent, parentEvent in
      guard let childEvent = extract(parentEvent) else { return nil }
      return reduceOptionalChild(&parent, path, offset: offset, event: childEvent) { body(&$0, childEvent) }
    }
  }

  /// This child reducer, lifted into a parent whose state holds children by
  /// id: each event reaches the one child it names, in O(1) of the number
  /// of children. An event for an id that is not there changes nothing and
  /// is reported as discarded (``DiscardReason/noSuchChild(_:)``).
  ///
  /// Keep the children in a ``TrackedDictionary``: lifted feedbacks then read
  /// which children changed from its log instead of comparing them all.
  ///
  /// ```swift
  /// Download.reducer.lifted(children: \Downloads.State.items, event: Downloads.toItem)
  /// ```
  @inlinable
  public func lifted<Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable>(
    children path: WritableKeyPath<Parent, TrackedDictionary<ID, State>> & Sendable,
    event: ChildEventPath<ParentEvent, ID, Event>
  ) -> Reducer<Parent, ParentEvent> {
    let (body, extract) = (self.body, event.extract)
    let offset = MemoryLayout<Parent>.offset(of: path)
    ChildrenBehindAccessors.warnIfCopiedPerEvent(path, offset: offset)
    return Reducer<Parent, ParentEvent> { parent, parentEvent in
      guard let (id, childEvent) = extract(parentEvent) else { return nil }
      return reduceChild(&parent, path, offset: offset, id: id, event: childEvent) { body(&$0, childEvent) }
    }
  }

  /// This child reducer, lifted into a parent whose state holds children by
  /// id in a `Dictionary`; see the ``TrackedDictionary`` form.
  @inlinable
  public func lifted<Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable>(
    children path: WritableKeyPath<Parent, [ID: State]> & Sendable,
    event: ChildEventPath<ParentEvent, ID, Event>
  ) -> Reducer<Parent, ParentEvent> {
    let (body, extract) = (self.body, event.extract)
    ChildrenBehindAccessors.warnIfCopiedPerEvent(path, offset: MemoryLayout<Parent>.offset(of: path))
    return Reducer<Parent, ParentEvent> { parent, parentEvent in
      guard let (id, childEvent) = extract(parentEvent) else { return nil }
      guard parent[keyPath: path][id] != nil else {
        return "no child \(id) in \(path): \(childEvent) has no child to reach"
      }
      return body(&parent[keyPath: path][id]!, childEvent)
    }
  }
}

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
    body(&UnsafeMutableRawPointer(pointer).advanced(by: offset).assumingMemoryBound(to: Value.self).pointee)
  }
}

/// Runs `body` on the optional child at `path` of `root`, in place, and
/// returns why the event was discarded: the child's own reason, or that it
/// is `nil`. Through a computed or observed property (no `offset`) the
/// optional is read first: writing its `nil` back would run the setter and
/// observers for an event that changes nothing. Shared by the closure and
/// the event-case lifts.
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

/// The way from a parent's event and state to the child a chain of lifts at
/// stored properties reaches: the extractions one after the other, then
/// the child's reducer on its state, found at `offset` bytes into the
/// parent's. A lift of a lift adds one extraction and one offset: the
/// reducer that runs is one path, not one reducer per level.
@usableFromInline
struct ChildReach<State: Sendable, Event: Sendable>: Sendable {
  /// Where the reached child's state is, in bytes from the start of `State`.
  @usableFromInline let offset: Int
  /// Reduces the event into the child's state at the pointer, if the event
  /// holds one of the child's.
  @usableFromInline let reduce: @Sendable (Event, UnsafeMutableRawPointer) -> ChildReachOutcome

  @inlinable
  init(offset: Int, reduce: @escaping @Sendable (Event, UnsafeMutableRawPointer) -> ChildReachOutcome) {
    self.offset = offset
    self.reduce = reduce
  }
}

/// What a ``ChildReach`` did with an event.
@usableFromInline
enum ChildReachOutcome {
  /// The event holds none of the child's.
  case notForChild
  /// The child reduced its event, and said why a part of it was discarded.
  case reduced(String?)
}
