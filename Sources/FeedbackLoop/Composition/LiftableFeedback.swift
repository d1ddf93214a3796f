/// A feedback of a feature that a parent can lift into its own state and
/// events, keeping its guarantees (G3-G7).
///
/// A ``Feedback`` is made for one state type; a feature's feedbacks are
/// written once, for the feature's own state, and lifted with it (see
/// ``Feature``). Each lifted feedback is made from the core's own: a lifted
/// query feedback is a query feedback whose query is `nil` while the child's
/// state does not exist, so it still restarts only when its query changes,
/// and the effects of a child whose state disappears are cancelled, their
/// late events dropped (G4).
///
/// ```swift
/// extension Search {
///   static func feedbacks(api: API) -> [LiftableFeedback<State, Event>] {
///     [
///       .query(\.query, name: "search") { query in
///         .task { try await .results(api.search(query)) } catch: { .failed($0) }
///       }
///     ]
///   }
/// }
/// ```
public struct LiftableFeedback<State: Sendable, Event: Sendable>: Sendable {
  /// How to make the feedback, and lift it, for every kind.
  @usableFromInline let recipe: any FeedbackRecipe<State, Event>
  /// The feedback made where its types are concrete (specialized in the
  /// user's module), for the kinds that have a ``LeafPath``; `nil`: the
  /// recipe makes it, generically.
  @usableFromInline let built: Feedback<State, Event>?
  /// The feedback's lifts composed into one path, for the kinds that have
  /// one and lifts with an offset: the query and predicate feedbacks, and
  /// for their lifts by id only, the event and requests feedbacks (see
  /// `LeafPath.standalone`).
  @usableFromInline let path: LeafPath<State, Event>?
  /// For a feedback lifted by id through a ``LeafPath`` at a stored
  /// property: its way to the children, which further lifts compose (see
  /// ByIDPath.swift); `nil` otherwise.
  @usableFromInline let byID: (any ByIDPath<State, Event>)?

  @usableFromInline
  init(
    _ recipe: any FeedbackRecipe<State, Event>, built: Feedback<State, Event>? = nil,
    path: LeafPath<State, Event>? = nil, byID: (any ByIDPath<State, Event>)? = nil
  ) {
    self.recipe = recipe
    self.built = built
    self.path = path
    self.byID = byID
  }

  /// The recipe lifted, and the path too where it composes: the fast form
  /// when both exist and the path makes a feedback of its own (the recipe
  /// makes the event and requests kinds', their paths kept for a lift by id).
  @inlinable
  static func lifted(_ recipe: any FeedbackRecipe<State, Event>, path: LeafPath<State, Event>?) -> LiftableFeedback {
    guard let path else { return LiftableFeedback(recipe) }
    return LiftableFeedback(recipe, built: path.standalone ? path.feedback(name: recipe.name) : nil, path: path)
  }

  /// The text of a feedback's label, for the `@inlinable` constructors.
  @usableFromInline
  static func label(_ name: String?, kind: StaticString, fileID: StaticString, line: UInt) -> String {
    FeedbackLabel(explicit: name, kind: kind, fileID: fileID, line: line).text
  }

  /// The feedback, for a system of the feature's own state.
  public var feedback: Feedback<State, Event> { built ?? recipe.feedback() }

  /// The feedback's name, as monitors and the testing kit show it: a lifted
  /// feedback's name starts with the path of the feature it came from
  /// (`search/query@Search.swift:12`, `downloads[7]/...`).
  public var name: String { recipe.name }

  /// A query feedback (G4), spelled as ``Feedback/query(_:strategy:name:fileID:line:effects:)``:
  /// `query` is computed from each state; when it changes the running effect
  /// is cancelled and `effects` starts a new one for a non-`nil` query; `nil`
  /// cancels.
  ///
  /// ```swift
  /// LiftableFeedback<Search.State, Search.Event>.query(\.query) { query in
  ///   .task { try await .results(api.search(query)) } catch: { .failed($0) }
  /// }
  /// ```
  @inlinable
  public static func query<Query: Equatable & Sendable>(
    _ query: @escaping @Sendable (State) -> Query?,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Query) -> Effect<Event>
  ) -> LiftableFeedback {
    let label = label(name, kind: "query", fileID: fileID, line: line)
    return LiftableFeedback(
      QueryRecipe(name: label, strategy: strategy, query: query, effects: effects),
      built: Feedback.query(query, strategy: strategy, name: label, effects: effects),
      path: .query(query, strategy: strategy, effects: effects))
  }

  /// A level-triggered predicate feedback (G5), spelled as
  /// ``Feedback/predicate(_:whenFalse:strategy:name:fileID:line:effects:)``:
  /// every state for which `predicate` holds triggers `effects`, and
  /// `whenFalse` says what a state for which it does not hold does to the
  /// running effect. Lifted into an optional child or a child by id, the
  /// effect is cancelled when the child's state goes.
  ///
  /// ```swift
  /// LiftableFeedback<Player.State, Player.Event>.predicate({ $0.isBuffering }, whenFalse: .cancelRunning) { _ in
  ///   .after(.seconds(5), send: .bufferingTimedOut)
  /// }
  /// ```
  @inlinable
  public static func predicate(
    _ predicate: @escaping @Sendable (State) -> Bool,
    whenFalse: WhenPredicateIsFalse,
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (State) -> Effect<Event>
  ) -> LiftableFeedback {
    let label = label(name, kind: "predicate", fileID: fileID, line: line)
    let path = LeafPath<State, Event>.predicate(predicate, whenFalse: whenFalse, strategy: strategy, effects: effects)
    return LiftableFeedback(
      predicateRecipe(label, predicate, whenFalse: whenFalse, strategy: strategy, effects: effects),
      built: path.feedback(name: label), path: path)
  }

  /// The predicate feedback's recipe, for the lifts that have no path (a
  /// computed property on the way).
  @usableFromInline
  static func predicateRecipe(
    _ label: String, _ predicate: @escaping @Sendable (State) -> Bool, whenFalse: WhenPredicateIsFalse,
    strategy: ExecutionStrategy, effects: @escaping @Sendable (State) -> Effect<Event>
  ) -> any FeedbackRecipe<State, Event> {
    PredicateRecipe(
      name: label, strategy: strategy,
      evaluate: { state in
        if predicate(state) { return .trigger(effects(state), because: "\(state)") }
        // `.absent` cancels the running effect (and the queued ones), as
        // the core's `.cancelRunning` does.
        return whenFalse == .cancelRunning ? .absent : .skip
      })
  }

  /// An event-triggered feedback, spelled as
  /// ``Feedback/onEvent(strategy:name:fileID:line:effects:)``: after each of the feature's events, the
  /// event and the state it produced trigger `effects`; `.none` leaves
  /// running effects alone. Lifted, it sees only the events meant for its
  /// feature, and its effects are cancelled when the feature's state goes.
  ///
  /// ```swift
  /// LiftableFeedback<Player.State, Player.Event>.onEvent { event, state in
  ///   guard case .finished = event else { return .none }
  ///   return .run { _ in await analytics.track("played", state.track) }
  /// }
  /// ```
  @inlinable
  public static func onEvent(
    strategy: ExecutionStrategy = .cancelPrevious,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Event, State) -> Effect<Event>
  ) -> LiftableFeedback {
    let label = label(name, kind: "onEvent", fileID: fileID, line: line)
    return LiftableFeedback(
      eventRecipe(label, strategy: strategy, effects: effects),
      built: Feedback.onEvent(strategy: strategy, name: label, effects: effects),
      path: .onEvent(effects: effects))
  }

  /// The event feedback's recipe, for the lifts that have no path (a
  /// computed property on the way) and the lifts into a single child.
  @usableFromInline
  static func eventRecipe(
    _ label: String, strategy: ExecutionStrategy, effects: @escaping @Sendable (Event, State) -> Effect<Event>
  ) -> any FeedbackRecipe<State, Event> {
    EventRecipe(
      name: label, strategy: strategy, isPresent: { _ in true },
      evaluate: { event, state in
        let effect = effects(event, state)
        return effect.isNone ? nil : (effect, "\(event)")
      })
  }

  /// A keyed feedback (G6), spelled as
  /// ``Feedback/requests(_:name:fileID:line:effects:)-((State)->Set<Request>,_,_,_,_)``:
  /// each state yields a set of requests; new ones
  /// start, removed ones are cancelled, kept ones go on. Lifted, a child
  /// that goes takes all its requests with it.
  ///
  /// ```swift
  /// LiftableFeedback<Gallery.State, Gallery.Event>.requests(\.visibleThumbnails) { url in
  ///   .task { try await .loaded(url, loader.load(url)) } catch: { .failed(url, $0) }
  /// }
  /// ```
  @inlinable
  public static func requests<Request: Hashable & Sendable>(
    _ requests: @escaping @Sendable (State) -> Set<Request>,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    effects: @escaping @Sendable (Request) -> Effect<Event>
  ) -> LiftableFeedback {
    let label = label(name, kind: "requests", fileID: fileID, line: line)
    return LiftableFeedback(
      requestsRecipe(label, requests, effects: effects),
      built: Feedback.requests(requests, name: label, effects: effects),
      path: .requests(requests, effects: effects))
  }

  /// The requests feedback's recipe, for the lifts that have no path (a
  /// computed property on the way) and the lifts into a single child.
  @usableFromInline
  static func requestsRecipe<Request: Hashable & Sendable>(
    _ label: String, _ requests: @escaping @Sendable (State) -> Set<Request>,
    effects: @escaping @Sendable (Request) -> Effect<Event>
  ) -> any FeedbackRecipe<State, Event> {
    RequestsRecipe(name: label, requests: requests, effects: effects)
  }

  /// This feedback, lifted into a parent whose state holds the child's at
  /// `state`, its name prefixed with `prefix` (`search/query@...`).
  /// A feature's lifts call it for each of its feedbacks.
  ///
  /// ```swift
  /// let lifted = load.lifted(state: \App.State.search, event: ToSearch(), name: "search")
  /// ```
  @inlinable
  public func lifted<Parent: Sendable, Case: EventCase>(
    state path: KeyPath<Parent, State> & Sendable,
    event: Case,
    name prefix: String
  ) -> LiftableFeedback<Parent, Case.Parent> where Case.Child == Event {
    let embed: @Sendable (Event) -> Case.Parent = { event.embed($0) }
    let extract: @Sendable (Case.Parent) -> Event? = { event.extract($0) }
    let lifted: any FeedbackRecipe<Parent, Case.Parent> = recipe.lifted(
      ChildScope(prefix: prefix, state: { $0[keyPath: path] }, embed: embed, extract: extract))
    if let byID, let outer = MemoryLayout<Parent>.offset(of: path) {
      return .liftedByID(lifted, byID.lifted(offset: outer, presence: nil, embed: embed, extract: extract))
    }
    return LiftableFeedback<Parent, Case.Parent>.lifted(
      lifted, path: self.path?.lifted(state: path, embed: embed, extract: extract))
  }

  /// This feedback, lifted into a parent whose state holds the child's as
  /// an optional: while it is `nil` the feedback's effects are cancelled.
  ///
  /// ```swift
  /// let lifted = play.lifted(optional: \App.State.player, event: ToPlayer(), name: "player")
  /// ```
  @inlinable
  public func lifted<Parent: Sendable, Case: EventCase>(
    optional path: KeyPath<Parent, State?> & Sendable,
    event: Case,
    name prefix: String
  ) -> LiftableFeedback<Parent, Case.Parent> where Case.Child == Event {
    let embed: @Sendable (Event) -> Case.Parent = { event.embed($0) }
    let extract: @Sendable (Case.Parent) -> Event? = { event.extract($0) }
    let lifted: any FeedbackRecipe<Parent, Case.Parent> = recipe.lifted(
      ChildScope(prefix: prefix, state: { $0[keyPath: path] }, embed: embed, extract: extract))
    if let byID, let outer = MemoryLayout<Parent>.offset(of: path) {
      // An `Optional`'s payload starts at its own offset 0 (see `LeafPath`).
      let here = PresenceCheck(offset: outer) { $0.assumingMemoryBound(to: State?.self).pointee != nil }
      return .liftedByID(lifted, byID.lifted(offset: outer, presence: here, embed: embed, extract: extract))
    }
    return LiftableFeedback<Parent, Case.Parent>.lifted(
      lifted, path: self.path?.lifted(optional: path, embed: embed, extract: extract))
  }

  /// This feedback, lifted into a parent whose state holds children by id:
  /// one instance per child, keyed by its id. A state costs O(k) for the k
  /// children its event wrote, whatever the number of children: the feedback
  /// reads them from the dictionary's log.
  ///
  /// A child feedback is asked only for the states of its own child that
  /// changed or were written (its events): a child whose state was left
  /// alone sees no new state, as it would running alone. The by-id form
  /// runs each child's effects with ``ExecutionStrategy/cancelPrevious``.
  ///
  /// Returns `nil` for a feedback that was lifted by id already (children
  /// by id inside children by id are not supported yet).
  ///
  /// ```swift
  /// let lifted = progress.lifted(children: \App.State.downloads, event: ToDownload(), name: "downloads")
  /// ```
  @inlinable
  public func lifted<Parent: Sendable, Case: ChildEventCase>(
    children path: KeyPath<Parent, TrackedDictionary<Case.ID, State>> & Sendable,
    event: Case,
    name prefix: String
  ) -> LiftableFeedback<Parent, Case.Parent>? where Case.Child == Event {
    let children = storedProjection(path)
    let embed: @Sendable (Case.ID, Event) -> Case.Parent = { event.embed($0, $1) }
    let extract: @Sendable (Case.Parent) -> (Case.ID, Event)? = { event.extract($0) }
    guard
      let lifted = recipe.liftedByID(
        ChildrenScope(prefix: prefix, children: { children($0) }, embed: embed, extract: extract))
    else { return nil }
    guard let leaf = self.path else { return LiftableFeedback<Parent, Case.Parent>(lifted) }
    return LiftableFeedback<Parent, Case.Parent>(
      lifted, built: leaf.byIDFeedback(name: lifted.name, children: path, embed: embed, extract: extract),
      byID: leaf.byIDPath(children: path, embed: embed, extract: extract))
  }

  /// A feedback lifted by id, lifted once more through `byID`: built by
  /// the path, the recipe kept for its name.
  @inlinable
  static func liftedByID(_ recipe: any FeedbackRecipe<State, Event>, _ byID: any ByIDPath<State, Event>)
    -> LiftableFeedback
  {
    LiftableFeedback(recipe, built: byID.feedback(name: recipe.name), byID: byID)
  }
}

extension LiftableFeedback {
  /// ``lifted(children:event:name:)``, for a feature's feedbacks: a feature
  /// that already holds children by id cannot be lifted by id again (not
  /// supported yet), and this stops the program saying so.
  @inlinable
  func liftedOrStopping<Parent: Sendable, Case: ChildEventCase>(
    children path: KeyPath<Parent, TrackedDictionary<Case.ID, State>> & Sendable,
    event: Case,
    name prefix: String
  ) -> LiftableFeedback<Parent, Case.Parent> where Case.Child == Event {
    guard let lifted = lifted(children: path, event: event, name: prefix) else {
      // Not `preconditionFailure`, whose message an optimized build drops.
      fatalError(
        "FeedbackLoop: \(name) is a feedback over children by id: features by id inside children by id are not supported"
      )
    }
    return lifted
  }
}

/// Where a child's state and events are in a parent's: `state` is `nil`
/// while the child does not exist.
@usableFromInline
struct ChildScope<Parent: Sendable, ParentEvent: Sendable, Child: Sendable, ChildEvent: Sendable>: Sendable {
  let prefix: String
  let state: @Sendable (Parent) -> Child?
  let embed: @Sendable (ChildEvent) -> ParentEvent
  let extract: @Sendable (ParentEvent) -> ChildEvent?

  @usableFromInline
  init(
    prefix: String, state: @escaping @Sendable (Parent) -> Child?,
    embed: @escaping @Sendable (ChildEvent) -> ParentEvent,
    extract: @escaping @Sendable (ParentEvent) -> ChildEvent?
  ) {
    self.prefix = prefix
    self.state = state
    self.embed = embed
    self.extract = extract
  }
}

/// Where children by id are in a parent's state and events.
@usableFromInline
struct ChildrenScope<
  Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable, Child: Sendable, ChildEvent: Sendable
>: Sendable {
  let prefix: String
  let children: @Sendable (Parent) -> TrackedDictionary<ID, Child>?
  let embed: @Sendable (ID, ChildEvent) -> ParentEvent
  let extract: @Sendable (ParentEvent) -> (ID, ChildEvent)?

  @usableFromInline
  init(
    prefix: String, children: @escaping @Sendable (Parent) -> TrackedDictionary<ID, Child>?,
    embed: @escaping @Sendable (ID, ChildEvent) -> ParentEvent,
    extract: @escaping @Sendable (ParentEvent) -> (ID, ChildEvent)?
  ) {
    self.prefix = prefix
    self.children = children
    self.embed = embed
    self.extract = extract
  }
}

/// What a liftable feedback is made of: enough to make the feedback for its
/// own state, or a recipe of the same kind for a parent's.
@usableFromInline
protocol FeedbackRecipe<State, Event>: Sendable {
  associatedtype State: Sendable
  associatedtype Event: Sendable
  var name: String { get }
  func feedback() -> Feedback<State, Event>
  func lifted<Parent: Sendable, ParentEvent: Sendable>(
    _ scope: ChildScope<Parent, ParentEvent, State, Event>
  ) -> any FeedbackRecipe<Parent, ParentEvent>
  func liftedByID<Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable>(
    _ scope: ChildrenScope<Parent, ParentEvent, ID, State, Event>
  ) -> (any FeedbackRecipe<Parent, ParentEvent>)?
}

func liftedName(_ prefix: String, _ name: String) -> String { prefix.isEmpty ? name : "\(prefix)/\(name)" }
