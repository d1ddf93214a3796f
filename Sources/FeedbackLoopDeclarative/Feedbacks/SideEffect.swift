/// Dependency injection for side effects (the Feedbacks library's `SideEffect.make`),
/// with any number of dependencies.
///
/// A side effect receives only a state. Write it as a function of its
/// dependencies and the state, the state last, and let `make` bind the
/// dependencies:
///
/// ```swift
/// enum LoadingSideEffects {
///   static func load(network: NetworkService, database: Database, state: LoadingState) -> Effect<any EventProtocol> {
///     .task {
///       let data = try await network.fetch(page: state.page)
///       await database.save(data)
///       return DataIsLoaded(data: data)
///     } catch: { _ in LoadingHasFailed() }
///   }
/// }
///
/// let load = SideEffect.make(LoadingSideEffects.load, network, database)
/// Feedback.on(LoadingState.self, strategy: .cancelPrevious, perform: load)
/// ```
///
/// The Feedbacks library stops at six parameters; parameter packs have no such limit.
public enum SideEffect {
  /// Binds `dependencies` to the first parameters of `function`, leaving a
  /// function of its last parameter, the state.
  ///
  /// ```swift
  /// let effect = SideEffect.make(Effects.sync, api, cache, clock, logger, settings, session, store)
  /// ```
  public static func make<each Dependency: Sendable, Input, Output>(
    _ function: @escaping @Sendable (repeat each Dependency, Input) -> Output,
    _ dependencies: repeat each Dependency
  ) -> @Sendable (Input) -> Output {
    { input in apply(function, repeat each dependencies, input) }
  }

  /// Calls a function whose parameters form one pack: Swift cannot yet call
  /// a function value whose pack of parameters is followed by another.
  private static func apply<each Argument, Output>(
    _ function: (repeat each Argument) -> Output,
    _ arguments: repeat each Argument
  ) -> Output {
    function(repeat each arguments)
  }
}
