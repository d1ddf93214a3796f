/// A reducer as a value: the pure function `(inout State, Event) -> Void`,
/// ready to be combined with others over the same state and lifted into a
/// parent's state and event.
///
/// ```swift
/// let app = Reducer<App.State, App.Event>.combine(
///   Reducer(App.reduce),
///   Search.reducer.lifted(state: \.search, event: ToSearch()),
///   Player.reducer.lifted(optional: \.player, event: ToPlayer()),
///   Download.reducer.lifted(children: \.downloads, event: ToDownload())
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
  /// For the reducer of a lift at a stored property (``LiftedFeature``'s
  /// ``FeatureProtocol/feature``): the way to the child it reaches, so that
  /// lifting it again through closures composes one path (one call a
  /// level) instead of calling this reducer from the next one's.
  @usableFromInline package let reach: ChildReach<State, Event>?

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
  /// Search.reducer.lifted(state: \App.State.search, event: ToSearch())
  /// ```
  @inlinable
  public func lifted<Parent: Sendable, Case: EventCase>(
    state path: WritableKeyPath<Parent, State> & Sendable, event: Case
  ) -> Reducer<Parent, Case.Parent> where Case.Child == Event {
    Feature(name: "", reducer: self).lifted(state: path, event: event).feature.reducer
  }

  /// This child reducer, lifted into a parent whose state holds the child's
  /// as an optional: the child runs only while its state exists. An event
  /// for the child while it is `nil` changes nothing and is reported as
  /// discarded (``DiscardReason/noSuchChild(_:)``).
  ///
  /// ```swift
  /// Player.reducer.lifted(optional: \App.State.player, event: ToPlayer())
  /// ```
  @inlinable
  public func lifted<Parent: Sendable, Case: EventCase>(
    optional path: WritableKeyPath<Parent, State?> & Sendable, event: Case
  ) -> Reducer<Parent, Case.Parent> where Case.Child == Event {
    Feature(name: "", reducer: self).lifted(optional: path, event: event).feature.reducer
  }

  /// This child reducer, lifted into a parent whose state holds children by
  /// id in a ``TrackedDictionary``: each event reaches the one child it
  /// names, in O(1) of the number of children. An event for an id that is
  /// not there changes nothing and is reported as discarded
  /// (``DiscardReason/noSuchChild(_:)``).
  ///
  /// ```swift
  /// Download.reducer.lifted(children: \Downloads.State.items, event: ToItem())
  /// ```
  @inlinable
  public func lifted<Parent: Sendable, Case: ChildEventCase>(
    children path: WritableKeyPath<Parent, TrackedDictionary<Case.ID, State>> & Sendable, event: Case
  ) -> Reducer<Parent, Case.Parent> where Case.Child == Event {
    Feature(name: "", reducer: self).lifted(children: path, event: event).feature.reducer
  }
}

/// The way from a parent's event and state to the child that a chain of
/// lifts at stored properties reaches: the extractions one after the other,
/// then the child's reducer on its state, found `offset` bytes into the
/// parent's. Lifting a reducer that has one adds one extraction in front
/// and its own offset: the reduction is one path through the levels, not
/// one reducer calling the next.
@usableFromInline
package struct ChildReach<State: Sendable, Event: Sendable>: Sendable {
  /// Where the reached child's state is, in bytes from the start of `State`.
  @usableFromInline package let offset: Int
  /// Reduces the event into the reached child's state, at the pointer, if
  /// the event holds one of the child's.
  @usableFromInline let reduce: @Sendable (Event, UnsafeMutableRawPointer) -> ChildReachOutcome

  @inlinable
  init(offset: Int, reduce: @escaping @Sendable (Event, UnsafeMutableRawPointer) -> ChildReachOutcome) {
    self.offset = offset
    self.reduce = reduce
  }

  /// This reach as a reducer of `State`.
  @inlinable
  var reducer: Reducer<State, Event> {
    let (offset, reduce) = (self.offset, self.reduce)
    return Reducer(
      body: { state, event in
        withUnsafeMutablePointer(to: &state) { pointer in
          // `offset` is the sum of the stored properties' offsets on the way
          // to the child: its state is there, inside `state`, for this call.
          switch reduce(event, UnsafeMutableRawPointer(pointer) + offset) {
          case .notForChild: nil
          case .reduced(let discard): discard
          }
        }
      }, reach: self)
  }
}

/// What a ``ChildReach`` did with an event.
@usableFromInline
package enum ChildReachOutcome {
  /// The event holds none of the child's.
  case notForChild
  /// The child reduced its event, and said why a part of it was discarded.
  case reduced(String?)
}
