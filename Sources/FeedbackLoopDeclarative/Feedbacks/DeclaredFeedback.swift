import FeedbackLoop

/// A feedback of a declared system: a side effect for the states a pattern
/// matches, under an execution strategy, with the Feedbacks library's modifiers.
///
/// Write one with `Feedback.on(_:strategy:whenUnmatched:name:fileID:line:perform:)`
/// inside ``Feedbacks``; the core's own feedbacks (`.input(_:)`,
/// `.query(_:)`, ...) may be listed there too.
///
/// ```swift
/// Feedbacks {
///   Feedback.on(LoadingState.self, strategy: .cancelPrevious) { state in
///     .task { .loaded(try await api.page(state.page)) } catch: { _ in LoadingHasFailed() }
///   }
///   .onEventEmitted { event in print("emitted", event) }
/// }
/// ```
///
/// Every state the system produces reaches the feedback (G3); each one the
/// pattern matches triggers the side effect (level-triggered, as in the
/// Feedbacks library), and the strategy says what happens to the effect still running.
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
    @usableFromInline let whenUnmatched: WhenPredicateIsFalse
    @usableFromInline let name: String?
    @usableFromInline let fileID: StaticString
    @usableFromInline let line: UInt
    @usableFromInline let matches: @Sendable (State) -> Bool
    /// The side effect for a matching state, its operations run on the
    /// executor if one is given (a `TaskExecutor`, untyped).
    @usableFromInline let effects: @Sendable ((any Sendable)?) -> @Sendable (State) -> Effect<Event>

    @inlinable
    init(
      patternName: String, strategy: ExecutionStrategy, whenUnmatched: WhenPredicateIsFalse, name: String?,
      fileID: StaticString, line: UInt,
      matches: @escaping @Sendable (State) -> Bool,
      effects: @escaping @Sendable ((any Sendable)?) -> @Sendable (State) -> Effect<Event>
    ) {
      self.patternName = patternName
      self.strategy = strategy
      self.whenUnmatched = whenUnmatched
      self.name = name
      self.fileID = fileID
      self.line = line
      self.matches = matches
      self.effects = effects
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
  /// `State` and `Event`; so are the `Feedback.on(...)` functions and the
  /// patterns, whose closures these call for every state.
  @inlinable
  func makeCoreFeedback() -> FeedbackLoop.Feedback<State, Event> {
    switch kind {
    case .core(let feedback):
      return feedback
    case .declared(let body):
      // Without modifiers, the core calls the pattern's closures directly:
      // no closure in between, no copy of the effect on its way back.
      let disabled = self.disabled
      let received = self.stateReceived
      let emitted = self.eventEmitted
      let matches = body.matches
      let effects = body.effects(executor)
      let predicate: @Sendable (State) -> Bool
      if received.isEmpty && disabled.isEmpty {
        predicate = matches
      } else {
        predicate = { state in
          for perform in received { perform(state) }
          for condition in disabled where condition() { return false }
          return matches(state)
        }
      }
      let effectsReportingEvents: @Sendable (State) -> Effect<Event>
      if emitted.isEmpty {
        effectsReportingEvents = effects
      } else {
        effectsReportingEvents = { state in
          effects(state).map { event in
            for perform in emitted { perform(event) }
            return event
          }
        }
      }
      return FeedbackLoop.Feedback.predicate(
        predicate,
        whenFalse: body.whenUnmatched,
        strategy: body.strategy,
        name: body.name ?? "on \(body.patternName)",
        fileID: body.fileID,
        line: body.line,
        effects: effectsReportingEvents)
    }
  }
}

extension DeclaredFeedback {
  /// A declared feedback for the states `pattern` matches, whose side
  /// effect `effect` makes from the extracted value and the executor.
  @inlinable
  init<Value>(
    pattern: Pattern<State, Value>,
    strategy: ExecutionStrategy,
    whenUnmatched: WhenPredicateIsFalse,
    name: String?,
    fileID: StaticString,
    line: UInt,
    effects: @escaping @Sendable ((any Sendable)?) -> @Sendable (Value) -> Effect<Event>
  ) {
    let extract = pattern.extractor
    self.init(
      .declared(
        Body(
          patternName: pattern.name, strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID,
          line: line,
          matches: { extract($0) != nil },
          effects: { executor in
            let effect = effects(executor)
            return { state in
              guard let value = extract(state) else { return .none }
              return effect(value)
            }
          })))
  }

  /// A declared feedback whose side effect returns an `Effect`.
  @inlinable
  init<Value>(
    pattern: Pattern<State, Value>, strategy: ExecutionStrategy, whenUnmatched: WhenPredicateIsFalse, name: String?,
    fileID: StaticString, line: UInt,
    perform: @escaping @Sendable (Value) -> Effect<Event>
  ) {
    self.init(
      pattern: pattern, strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID, line: line,
      effects: { _ in perform })
  }

  /// A declared feedback whose side effect is an asynchronous operation,
  /// which ``effectExecutor(_:)`` can move to an executor.
  @inlinable
  init<Value>(
    pattern: Pattern<State, Value>, strategy: ExecutionStrategy, whenUnmatched: WhenPredicateIsFalse, name: String?,
    fileID: StaticString, line: UInt,
    run: @escaping @Sendable (Value, Send<Event>) async throws -> Void
  ) {
    self.init(
      pattern: pattern, strategy: strategy, whenUnmatched: whenUnmatched, name: name, fileID: fileID, line: line,
      effects: { executor in
        { value in
          .run { send in
            if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *),
              let executor = executor as? any TaskExecutor
            {
              try await withTaskExecutorPreference(executor) { try await run(value, send) }
            } else {
              try await run(value, send)
            }
          }
        }
      })
  }
}
