import FeedbackLoop

// The declared feedback's one spelling, `Feedback.on(_:strategy:...)`, a
// static function of `Feedback` as every feedback kind's spelling is. It
// returns a `DeclaredFeedback`, the type the declarative layer's modifiers
// act on. In a `Feedbacks` list it reads `Feedback.on(LoadingState.self)
// { ... }`, beside the core's `Feedback.input(...)` and `Feedback.query(...)`:
// a result builder's line that starts with a dot would continue the line
// before it, so a list names the type. The Feedbacks library's
// `Feedback(on:strategy:perform:)` lives in FeedbackLoopCompatibility.

extension FeedbackLoop.Feedback {
  // MARK: - Side effects that return an Effect

  /// A feedback for the states of type `type` (the Feedbacks library's form): each such
  /// state triggers `perform`, whose effect runs under `strategy`.
  ///
  /// ```swift
  /// Feedback.on(VolumeState.self, strategy: .queue) { state in
  ///   state.value >= targetedVolume ? .none : .send(IncreaseEvent())
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - type: the state type; ``AnyState`` for every state.
  ///   - strategy: what a new matching state does to the running effect.
  ///   - whenUnmatched: what a state the feedback does not match does to the
  ///     running effect: by default it keeps running (the Feedbacks library's
  ///     behaviour);
  ///     `.cancelRunning` cancels it, so it lives only while the system stays
  ///     in the matching states.
  ///   - name: the name monitors show; by default `on StateType`.
  ///   - perform: the side effect for a matching state.
  ///   - fileID: where the feedback is declared, filled in by the compiler, for
  ///     monitors and failure reports.
  ///   - line: the line of that declaration, filled in by the compiler.
  @_disfavoredOverload  // `AnyState.self` takes the wildcard's form, whose side effect gets the state
  @inlinable
  public static func on<StateType: Sendable>(
    _ type: StateType.Type,
    strategy: ExecutionStrategy = .cancelPrevious,
    whenUnmatched: WhenPredicateIsFalse = .keepRunning,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    perform: @escaping @Sendable (StateType) -> Effect<Event>
  ) -> DeclaredFeedback<State, Event> {
    DeclaredFeedback(
      pattern: typePattern(type), strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID,
      line: line, perform: perform)
  }

  /// A feedback for every state: each state triggers `perform`.
  ///
  /// ```swift
  /// Feedback.on(AnyState.self, strategy: .queue) { state in
  ///   .run { _ in await analytics.record(state) }
  /// }
  /// ```
  @inlinable
  public static func on(
    _ type: AnyState.Type,
    strategy: ExecutionStrategy = .cancelPrevious,
    whenUnmatched: WhenPredicateIsFalse = .keepRunning,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    perform: @escaping @Sendable (State) -> Effect<Event>
  ) -> DeclaredFeedback<State, Event> {
    DeclaredFeedback(
      pattern: Pattern<State, State>.anyNamed("AnyState"), strategy: strategy, whenUnmatched: whenUnmatched, name: name,
      fileID: fileID, line: line,
      perform: perform)
  }

  /// A feedback for the states `pattern` matches: each one triggers `perform`
  /// with the value the pattern extracts.
  ///
  /// ```swift
  /// Feedback.on(.case("loading", \Phase.loading)) { page in
  ///   .task { .loaded(try await api.page(page)) } catch: { _ in .failed }
  /// }
  /// ```
  @inlinable
  public static func on<Value: Sendable>(
    _ pattern: Pattern<State, Value>,
    strategy: ExecutionStrategy = .cancelPrevious,
    whenUnmatched: WhenPredicateIsFalse = .keepRunning,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    perform: @escaping @Sendable (Value) -> Effect<Event>
  ) -> DeclaredFeedback<State, Event> {
    DeclaredFeedback(
      pattern: pattern, strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID, line: line,
      perform: perform)
  }

  // MARK: - Side effects that are asynchronous operations

  /// A feedback for the states of type `type` whose side effect is an
  /// asynchronous operation that sends events while it runs. Unlike an
  /// `Effect`, an operation can be moved to an executor with
  /// ``DeclaredFeedback/effectExecutor(_:)``.
  ///
  /// ```swift
  /// Feedback.on(LoadingState.self, strategy: .cancelPrevious) { state, send in
  ///   send(DataIsLoaded(data: try await api.page(state.page)))
  /// }
  /// .effectExecutor(imageDecodingExecutor)
  /// ```
  @_disfavoredOverload  // `AnyState.self` takes the wildcard's form, whose side effect gets the state
  @inlinable
  public static func on<StateType: Sendable>(
    _ type: StateType.Type,
    strategy: ExecutionStrategy = .cancelPrevious,
    whenUnmatched: WhenPredicateIsFalse = .keepRunning,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    run: @escaping @Sendable (StateType, Send<Event>) async throws -> Void
  ) -> DeclaredFeedback<State, Event> {
    DeclaredFeedback(
      pattern: typePattern(type), strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID,
      line: line, run: run)
  }

  /// A feedback for every state whose side effect is an asynchronous
  /// operation that sends events while it runs.
  ///
  /// ```swift
  /// Feedback.on(AnyState.self) { state, send in
  ///   await recorder.record(state)
  /// }
  /// ```
  @inlinable
  public static func on(
    _ type: AnyState.Type,
    strategy: ExecutionStrategy = .cancelPrevious,
    whenUnmatched: WhenPredicateIsFalse = .keepRunning,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    run: @escaping @Sendable (State, Send<Event>) async throws -> Void
  ) -> DeclaredFeedback<State, Event> {
    DeclaredFeedback(
      pattern: Pattern<State, State>.anyNamed("AnyState"), strategy: strategy, whenUnmatched: whenUnmatched, name: name,
      fileID: fileID, line: line,
      run: run)
  }

  /// A feedback for the states `pattern` matches whose side effect is an
  /// asynchronous operation that sends events while it runs.
  ///
  /// ```swift
  /// Feedback.on(.case("loading", \Phase.loading)) { page, send in
  ///   send(.loaded(try await api.page(page)))
  /// }
  /// ```
  @inlinable
  public static func on<Value: Sendable>(
    _ pattern: Pattern<State, Value>,
    strategy: ExecutionStrategy = .cancelPrevious,
    whenUnmatched: WhenPredicateIsFalse = .keepRunning,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    run: @escaping @Sendable (Value, Send<Event>) async throws -> Void
  ) -> DeclaredFeedback<State, Event> {
    DeclaredFeedback(
      pattern: pattern, strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID, line: line,
      run: run
    )
  }
}
