/// A feature as one value: its reducer and its feedbacks, for one state and
/// one event type, so that a parent composes features rather than lists.
///
/// A feature runs alone, unchanged, as a ``System``, and is lifted into a
/// parent in three shapes (see ``FeatureProtocol``): at a key path, as an
/// optional child (it runs only while its state exists), and as children by
/// id (each event reaches the one child it names, in O(1) of their number).
///
/// ```swift
/// enum Search {
///   struct State: Sendable, Equatable { var query = ""; var results: [String] = [] }
///   enum Event: Sendable { case queryChanged(String), results([String]) }
///
///   static func feature(api: API) -> Feature<State, Event> {
///     Feature(name: "search", reducer: Reducer(reduce), feedbacks: [
///       .query({ $0.query.isEmpty ? nil : $0.query }) { query in
///         .task { .results(await api.search(query)) }
///       }
///     ])
///   }
/// }
///
/// let app = Feature(name: "app", reducer: Reducer(App.reduce))
///   .combined(with: Search.feature(api: api).lifted(state: \App.State.search, event: App.toSearch))
///   .combined(with: Player.feature.lifted(optional: \App.State.player, event: App.toPlayer))
/// let system = System(initial: App.State(), feature: app)
/// ```
public struct Feature<State: Sendable, Event: Sendable>: Sendable {
  /// The feature's name: the prefix of the names of its lifted feedbacks.
  public var name: String
  /// The reducer.
  public var reducer: Reducer<State, Event>
  /// The feedbacks, in the order they see each state.
  public var feedbacks: [LiftableFeedback<State, Event>]

  /// A feature made of its reducer and feedbacks.
  public init(name: String, reducer: Reducer<State, Event>, feedbacks: [LiftableFeedback<State, Event>] = []) {
    self.name = name
    self.reducer = reducer
    self.feedbacks = feedbacks
  }

  /// The feedbacks, ready for a ``System`` of this feature's state.
  public var systemFeedbacks: [Feedback<State, Event>] { feedbacks.map(\.feedback) }

  /// Features over one state, as one: their reducers run in order on each
  /// event, then their feedbacks see each state in order.
  @inlinable
  public static func combine(name: String, _ features: Feature...) -> Feature { combine(name: name, features) }

  /// Features over one state, as one.
  @inlinable
  public static func combine(name: String, _ features: [Feature]) -> Feature {
    Feature(
      name: name, reducer: .combine(features.map(\.reducer)), feedbacks: features.flatMap(\.feedbacks))
  }
}

extension System {
  /// Starts a system running `feature`, plus any `feedbacks` of the root
  /// that need not be lifted (inputs, UI bridges).
  ///
  /// An event that the feature's lifted reducers could not deliver (for an
  /// optional child that is `nil`, an id not in the collection) leaves the
  /// state alone and is reported to `monitor` as
  /// ``SystemActivity/eventDiscarded(_:reason:)`` with
  /// ``DiscardReason/noSuchChild(_:)``, before its `.reduced`.
  ///
  /// ```swift
  /// let system = System(initial: App.State(), feature: App.feature(api: api), feedbacks: [.input(buttons)])
  /// ```
  @inlinable
  public convenience init(
    initial: consuming State,
    feature: Feature<State, Event>,
    feedbacks: [Feedback<State, Event>] = [],
    isolation: SystemIsolation = .sendingThread,
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<State, Event>? = nil,
    caller: isolated (any Actor)? = #isolation
  ) {
    self.init(
      initial: initial, reducer: feature.reducer, feedbacks: feature.systemFeedbacks + feedbacks,
      isolation: isolation, environment: environment, monitor: monitor, caller: caller)
  }

  /// Starts a system whose reducer is a ``Reducer``: an event that its
  /// lifted reducers could not deliver to a child is reported to `monitor`
  /// as ``DiscardReason/noSuchChild(_:)`` and logged as a warning.
  ///
  /// ```swift
  /// let system = System(initial: App.State(), reducer: appReducer, feedbacks: appFeedbacks)
  /// ```
  ///
  /// Inlinable, so that the closure that reports discards per event is
  /// specialized in the caller's module: built in the library it looked up
  /// generic metadata on every event (the children-by-id benchmark in BENCHMARKS.md).
  @inlinable
  public convenience init(
    initial: consuming State,
    reducer: Reducer<State, Event>,
    feedbacks: [Feedback<State, Event>] = [],
    isolation: SystemIsolation = .sendingThread,
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<State, Event>? = nil,
    caller: isolated (any Actor)? = #isolation
  ) {
    let body = reducer.body
    let report = DiscardReport(environment: environment, monitor: monitor)
    self.init(
      initial: initial,
      reduce: { state, event in
        guard let reason = body(&state, event) else { return }
        report.discarded(event, because: reason)
      },
      feedbacks: feedbacks, isolation: isolation, environment: environment, monitor: monitor, caller: caller)
  }
}

/// Where a system started with a ``Reducer`` reports the events its lifted
/// reducers could not deliver: the rare path, kept out of the inlined one.
@usableFromInline
struct DiscardReport<State: Sendable, Event: Sendable>: Sendable {
  let environment: SystemEnvironment
  let monitor: SystemMonitor<State, Event>?

  @usableFromInline
  init(environment: SystemEnvironment, monitor: SystemMonitor<State, Event>?) {
    self.environment = environment
    self.monitor = monitor
  }

  @usableFromInline
  func discarded(_ event: Event, because reason: String) {
    environment.logger.warning("event discarded: \(event): \(reason)")
    monitor?.report(.eventDiscarded(event, reason: .noSuchChild(reason)))
  }
}
