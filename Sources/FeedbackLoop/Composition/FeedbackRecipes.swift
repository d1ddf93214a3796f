// The recipes behind `LiftableFeedback`: one per feedback kind, each made
// into the core's own feedback for its state, or lifted into a recipe of the
// same kind for a parent's. Lifting composes functions at construction; no
// runtime object stands between the parent's loop and the child's feedback.

/// A query feedback (G4). Lifted, its query is `nil` while the child does
/// not exist, so the child's going cancels its effect like any `nil` query.
@usableFromInline
struct QueryRecipe<State: Sendable, Event: Sendable, Query: Equatable & Sendable>: FeedbackRecipe {
  @usableFromInline let name: String
  let strategy: ExecutionStrategy
  let query: @Sendable (State) -> Query?
  let effects: @Sendable (Query) -> Effect<Event>

  @usableFromInline
  init(
    name: String, strategy: ExecutionStrategy, query: @escaping @Sendable (State) -> Query?,
    effects: @escaping @Sendable (Query) -> Effect<Event>
  ) {
    self.name = name
    self.strategy = strategy
    self.query = query
    self.effects = effects
  }

  @usableFromInline
  func feedback() -> Feedback<State, Event> {
    Feedback.query(query, strategy: strategy, name: name, effects: effects)
  }

  @usableFromInline
  func lifted<Parent: Sendable, ParentEvent: Sendable>(
    _ scope: ChildScope<Parent, ParentEvent, State, Event>
  ) -> any FeedbackRecipe<Parent, ParentEvent> {
    let (query, effects, state, embed) = (self.query, self.effects, scope.state, scope.embed)
    return QueryRecipe<Parent, ParentEvent, Query>(
      name: liftedName(scope.prefix, name), strategy: strategy,
      query: { parent in state(parent).flatMap(query) },
      effects: { effects($0).map(embed) })
  }

  @usableFromInline
  func liftedByID<Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable>(
    _ scope: ChildrenScope<Parent, ParentEvent, ID, State, Event>
  ) -> (any FeedbackRecipe<Parent, ParentEvent>)? {
    let (query, effects, embed) = (self.query, self.effects, scope.embed)
    return ByIDRecipe<Parent, ParentEvent, ID, ID, State>(
      name: liftedName("\(scope.prefix)[id]", name), children: scope.children,
      makeHandlers: { sink in
        let last = Memory<[ID: Query]>([:])
        return ByIDHandlers(
          onChild: { id, child in
            let current = child.flatMap(query)
            guard current != last.value[id] else { return }
            last.value[id] = current
            sink.cancel(id)
            if let current { sink.start(id, effects(current).map { embed(id, $0) }) }
          },
          onEvent: nil)
      })
  }
}

/// What a predicate says of one state.
enum PredicateStep<Event: Sendable> {
  /// The child does not exist: cancel its effect.
  case absent
  /// The predicate does not hold: leave the running effect alone.
  case skip
  /// The predicate holds: trigger the effect.
  case trigger(Effect<Event>, because: String)

  func map<Other: Sendable>(_ transform: @escaping @Sendable (Event) -> Other) -> PredicateStep<Other> {
    switch self {
    case .absent: .absent
    case .skip: .skip
    case .trigger(let effect, let because): .trigger(effect.map(transform), because: because)
    }
  }
}

/// A level-triggered predicate feedback (G5); a child that goes cancels its
/// effect.
struct PredicateRecipe<State: Sendable, Event: Sendable>: FeedbackRecipe {
  let name: String
  let strategy: ExecutionStrategy
  let evaluate: @Sendable (State) -> PredicateStep<Event>

  func feedback() -> Feedback<State, Event> {
    let (evaluate, strategy) = (self.evaluate, self.strategy)
    return Feedback(name: name, kind: "predicate", fileID: #fileID, line: #line) { id, core in
      let runtime = EffectfulRuntime(id: id, core: core, strategy: strategy)
      let runner = runtime.unretained
      runtime.onEachState { state, _ in
        switch evaluate(state) {
        // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
        case .absent: runner._withUnsafeGuaranteedRef { $0.cancelAll() }
        case .skip: return
        // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
        case .trigger(let effect, let because): runner._withUnsafeGuaranteedRef { $0.trigger(effect, because: because) }
        }
      }
      return runtime
    }
  }

  func lifted<Parent: Sendable, ParentEvent: Sendable>(
    _ scope: ChildScope<Parent, ParentEvent, State, Event>
  ) -> any FeedbackRecipe<Parent, ParentEvent> {
    let (evaluate, state, embed) = (self.evaluate, scope.state, scope.embed)
    return PredicateRecipe<Parent, ParentEvent>(
      name: liftedName(scope.prefix, name), strategy: strategy,
      evaluate: { parent in state(parent).map { evaluate($0).map(embed) } ?? .absent })
  }

  func liftedByID<Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable>(
    _ scope: ChildrenScope<Parent, ParentEvent, ID, State, Event>
  ) -> (any FeedbackRecipe<Parent, ParentEvent>)? {
    let (evaluate, embed) = (self.evaluate, scope.embed)
    return ByIDRecipe<Parent, ParentEvent, ID, ID, State>(
      name: liftedName("\(scope.prefix)[id]", name), children: scope.children,
      makeHandlers: { sink in
        ByIDHandlers(
          onChild: { id, child in
            switch child.map(evaluate) ?? .absent {
            case .absent: sink.cancel(id)
            case .skip: return
            case .trigger(let effect, _):
              sink.cancel(id)
              sink.start(id, effect.map { embed(id, $0) })
            }
          },
          onEvent: nil)
      })
  }
}

/// An event-triggered feedback; lifted, it sees the child's events only,
/// and a child that goes cancels its effects.
struct EventRecipe<State: Sendable, Event: Sendable>: FeedbackRecipe {
  let name: String
  let strategy: ExecutionStrategy
  let isPresent: @Sendable (State) -> Bool
  /// The effect for an event and the state it produced, with its trigger's
  /// description; `nil` for none (running effects are left alone).
  let evaluate: @Sendable (Event, State) -> (Effect<Event>, String)?

  func feedback() -> Feedback<State, Event> {
    let (evaluate, isPresent, strategy) = (self.evaluate, self.isPresent, self.strategy)
    return Feedback(name: name, kind: "onEvent", fileID: #fileID, line: #line) { id, core in
      let runtime = EffectfulRuntime(id: id, core: core, strategy: strategy)
      let runner = runtime.unretained
      runtime.onEachEvent { event, state, _ in
        guard let (effect, because) = evaluate(event, state) else { return }
        // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
        runner._withUnsafeGuaranteedRef { $0.trigger(effect, because: because) }
      }
      runtime.onEachState { state, _ in
        // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
        if !isPresent(state) { runner._withUnsafeGuaranteedRef { $0.cancelAll() } }
      }
      return runtime
    }
  }

  func lifted<Parent: Sendable, ParentEvent: Sendable>(
    _ scope: ChildScope<Parent, ParentEvent, State, Event>
  ) -> any FeedbackRecipe<Parent, ParentEvent> {
    let (evaluate, isPresent, state, embed, extract) = (
      self.evaluate, self.isPresent, scope.state, scope.embed, scope.extract
    )
    return EventRecipe<Parent, ParentEvent>(
      name: liftedName(scope.prefix, name), strategy: strategy,
      isPresent: { parent in state(parent).map(isPresent) ?? false },
      evaluate: { parentEvent, parent in
        guard let event = extract(parentEvent), let child = state(parent),
          let (effect, because) = evaluate(event, child)
        else { return nil }
        return (effect.map(embed), because)
      })
  }

  func liftedByID<Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable>(
    _ scope: ChildrenScope<Parent, ParentEvent, ID, State, Event>
  ) -> (any FeedbackRecipe<Parent, ParentEvent>)? {
    let (evaluate, embed, extract, children) = (self.evaluate, scope.embed, scope.extract, scope.children)
    return ByIDRecipe<Parent, ParentEvent, ID, ID, State>(
      name: liftedName("\(scope.prefix)[id]", name), children: scope.children,
      makeHandlers: { sink in
        ByIDHandlers(
          onChild: { id, child in
            if child == nil { sink.cancel(id) }
          },
          onEvent: { parentEvent, parent in
            guard let (id, event) = extract(parentEvent), let child = children(parent)?[id],
              let (effect, _) = evaluate(event, child)
            else { return }
            sink.cancel(id)
            sink.start(id, effect.map { embed(id, $0) })
          })
      })
  }
}

/// A keyed feedback over a set of requests (G6); lifted, a child that goes
/// takes its requests with it.
struct RequestsRecipe<State: Sendable, Event: Sendable, Request: Hashable & Sendable>: FeedbackRecipe {
  let name: String
  let requests: @Sendable (State) -> Set<Request>
  let effects: @Sendable (Request) -> Effect<Event>

  func feedback() -> Feedback<State, Event> {
    Feedback.requests(requests, name: name, effects: effects)
  }

  func lifted<Parent: Sendable, ParentEvent: Sendable>(
    _ scope: ChildScope<Parent, ParentEvent, State, Event>
  ) -> any FeedbackRecipe<Parent, ParentEvent> {
    let (requests, effects, state, embed) = (self.requests, self.effects, scope.state, scope.embed)
    return RequestsRecipe<Parent, ParentEvent, Request>(
      name: liftedName(scope.prefix, name),
      requests: { parent in state(parent).map(requests) ?? [] },
      effects: { effects($0).map(embed) })
  }

  func liftedByID<Parent: Sendable, ParentEvent: Sendable, ID: Hashable & Sendable>(
    _ scope: ChildrenScope<Parent, ParentEvent, ID, State, Event>
  ) -> (any FeedbackRecipe<Parent, ParentEvent>)? {
    let (requests, effects, embed) = (self.requests, self.effects, scope.embed)
    return ByIDRecipe<Parent, ParentEvent, ID, ChildRequest<ID, Request>, State>(
      name: liftedName("\(scope.prefix)[id]", name), children: scope.children,
      makeHandlers: { sink in
        let last = Memory<[ID: Set<Request>]>([:])
        return ByIDHandlers(
          onChild: { id, child in
            let current = child.map(requests) ?? []
            let previous = last.value[id] ?? []
            guard current != previous else { return }
            last.value[id] = current.isEmpty ? nil : current
            for request in previous.subtracting(current) { sink.cancel(ChildRequest(id: id, request: request)) }
            for request in current.subtracting(previous) {
              sink.start(ChildRequest(id: id, request: request), effects(request).map { embed(id, $0) })
            }
          },
          onEvent: nil)
      })
  }
}

/// The key of one request of one child.
struct ChildRequest<ID: Hashable & Sendable, Request: Hashable & Sendable>: Hashable, Sendable, CustomStringConvertible
{
  let id: ID
  let request: Request
  var description: String { "\(id): \(request)" }
}
