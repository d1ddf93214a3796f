import FeedbackLoop

/// A feedback of a declared system: a side effect for the states a pattern
/// matches, under an execution strategy, with the seed's modifiers.
///
/// Write one with the `Feedback(on:strategy:perform:)` functions inside
/// ``Feedbacks``; the core's own feedbacks (`Feedback.input(_:)`,
/// `Feedback(lensing:)`, ...) may be listed there too.
///
/// ```swift
/// Feedbacks {
///   Feedback(on: LoadingState.self, strategy: .cancelOnNewState) { state in
///     .task { .loaded(try await api.page(state.page)) } catch: { _ in LoadingHasFailed() }
///   }
///   .onEventEmitted { event in print("emitted", event) }
/// }
/// ```
///
/// Every state the system produces reaches the feedback (G3); each one the
/// pattern matches triggers the side effect (level-triggered, as in the
/// seed), and the strategy says what happens to the effect still running.
public struct DeclaredFeedback<State: Sendable, Event: Sendable>: Sendable {
  @usableFromInline
  enum Kind: Sendable {
    case declared(Body)
    case core(FeedbackLoop.Feedback<State, Event>)
  }

  @usableFromInline
  struct Body: Sendable {
    @usableFromInline let patternName: String
    @usableFromInline let strategy: ExecutionStrategy
    @usableFromInline let name: String?
    @usableFromInline let fileID: StaticString
    @usableFromInline let line: UInt
    @usableFromInline let matches: @Sendable (State) -> Bool
    /// The effect for a matching state, run on the executor if one is given
    /// and the effect is an operation.
    @usableFromInline let effect: @Sendable (State, (any Sendable)?) -> Effect<Event>

    @inlinable
    init(
      patternName: String, strategy: ExecutionStrategy, name: String?, fileID: StaticString, line: UInt,
      matches: @escaping @Sendable (State) -> Bool,
      effect: @escaping @Sendable (State, (any Sendable)?) -> Effect<Event>
    ) {
      self.patternName = patternName
      self.strategy = strategy
      self.name = name
      self.fileID = fileID
      self.line = line
      self.matches = matches
      self.effect = effect
    }
  }

  @usableFromInline let kind: Kind
  @usableFromInline var disabled: [@Sendable () -> Bool] = []
  @usableFromInline var stateReceived: [@Sendable (State) -> Void] = []
  @usableFromInline var eventEmitted: [@Sendable (Event) -> Void] = []
  /// A `TaskExecutor`, stored untyped because `TaskExecutor` needs macOS 15.
  @usableFromInline var executor: (any Sendable)?

  @inlinable
  init(_ kind: Kind) {
    self.kind = kind
  }

  /// A core feedback, listed among declared ones. The modifiers of this
  /// layer do not apply to it: the core runs it as it is.
  ///
  /// ```swift
  /// Feedbacks { DeclaredFeedback(.input(buttons)) }
  /// ```
  @inlinable
  public init(_ feedback: FeedbackLoop.Feedback<State, Event>) {
    self.init(.core(feedback))
  }

  /// The name of the states the feedback reacts to, or `nil` for a core
  /// feedback.
  public var stateName: String? {
    if case .declared(let body) = kind { return body.patternName }
    return nil
  }

  /// The core feedback that runs this one.
  ///
  /// Inlinable, as the core's feedback initializers are, so that its
  /// closures are built in the user's module and run specialized for its
  /// `State` and `Event`; so are the `Feedback(on:...)` functions and the
  /// patterns, whose closures these call for every state.
  @inlinable
  func makeCoreFeedback() -> FeedbackLoop.Feedback<State, Event> {
    switch kind {
    case .core(let feedback):
      return feedback
    case .declared(let body):
      let disabled = self.disabled
      let received = self.stateReceived
      let emitted = self.eventEmitted
      let executor = self.executor
      return FeedbackLoop.Feedback(
        predicate: { state in
          for perform in received { perform(state) }
          for condition in disabled where condition() { return false }
          return body.matches(state)
        },
        strategy: body.strategy,
        name: body.name ?? "on \(body.patternName)",
        fileID: body.fileID,
        line: body.line
      ) { state in
        let effect = body.effect(state, executor)
        guard !emitted.isEmpty else { return effect }
        return effect.map { event in
          for perform in emitted { perform(event) }
          return event
        }
      }
    }
  }
}

extension DeclaredFeedback {
  /// A declared feedback for the states `pattern` matches.
  @inlinable
  init<Value>(
    pattern: Pattern<State, Value>,
    strategy: ExecutionStrategy,
    name: String?,
    fileID: StaticString,
    line: UInt,
    effect: @escaping @Sendable (Value, (any Sendable)?) -> Effect<Event>
  ) {
    self.init(
      .declared(
        Body(
          patternName: pattern.name, strategy: strategy, name: name, fileID: fileID, line: line,
          matches: pattern.matches,
          effect: { state, executor in
            guard let value = pattern.extract(from: state) else { return .none }
            return effect(value, executor)
          })))
  }

  /// A declared feedback whose side effect returns an ``Effect``.
  @inlinable
  init<Value>(
    pattern: Pattern<State, Value>, strategy: ExecutionStrategy, name: String?, fileID: StaticString, line: UInt,
    perform: @escaping @Sendable (Value) -> Effect<Event>
  ) {
    self.init(
      pattern: pattern, strategy: strategy, name: name, fileID: fileID, line: line,
      effect: { value, _ in perform(value) })
  }

  /// A declared feedback whose side effect is an asynchronous operation,
  /// which ``execute(on:)`` can move to an executor.
  @inlinable
  init<Value>(
    pattern: Pattern<State, Value>, strategy: ExecutionStrategy, name: String?, fileID: StaticString, line: UInt,
    run: @escaping @Sendable (Value, Send<Event>) async throws -> Void
  ) {
    self.init(
      pattern: pattern, strategy: strategy, name: name, fileID: fileID, line: line,
      effect: { value, executor in
        .run { send in
          if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *), let executor = executor as? any TaskExecutor
          {
            try await withTaskExecutorPreference(executor) { try await run(value, send) }
          } else {
            try await run(value, send)
          }
        }
      })
  }
}
