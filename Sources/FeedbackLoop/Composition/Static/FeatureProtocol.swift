/// A feature whose type records how it was composed, so that the compiler
/// composes its reducer: a ``Feature`` lifted through an ``EventCase``, then
/// lifted again, reduces an event in one inlined pass, at the cost of one
/// level whatever the number of levels (the event-case lifts benchmark in
/// BENCHMARKS.md).
///
/// ``Feature`` is one: any feature, a declared system's among them, is
/// lifted through an ``EventCase`` into a ``LiftedFeature`` (an
/// ``OptionalLiftedFeature``, a ``LiftedFeaturesByID``), and features over
/// one state combine into a ``CombinedFeatures``. A ``System`` runs any of
/// them; ``feature`` gives the ``Feature`` to store.
///
/// The library's types are the conformers: a type of your own may conform
/// through ``reduceReportingDiscards(_:_:)``, ``name`` and ``feedbacks``.
///
/// ```swift
/// let app = Feature(name: "app", reducer: Reducer(App.reduce))
///   .combined(with: Search.feature.lifted(state: \App.State.search, event: ToSearch()))
///   .combined(with: Player.feature.lifted(optional: \App.State.player, event: ToPlayer()))
/// let system = System(initial: App.State(), feature: app)
/// ```
public protocol FeatureProtocol<State, Event>: Sendable {
  /// The state the feature reduces.
  associatedtype State: Sendable
  /// The events it reduces.
  associatedtype Event: Sendable

  /// The feature's name: the prefix of the names of its lifted feedbacks.
  var name: String { get }
  /// The feedbacks, in the order they see each state.
  var feedbacks: [LiftableFeedback<State, Event>] { get }
  /// Reduces `event` into `state`, and returns why a part of it reached no
  /// child, or `nil` if nothing was discarded.
  func reduceReportingDiscards(_ state: inout State, _ event: Event) -> String?
  /// Reduces `event` into `state` as the child of a lift: the same
  /// reduction as ``reduceReportingDiscards(_:_:)``, which the default
  /// calls. ``LiftedFeature`` implements it inlined into its parent's, so
  /// that a chain of lifts reduces in one pass, at the cost of one level,
  /// while its ``reduceReportingDiscards(_:_:)``, where the chain starts, is
  /// left to the optimizer (forced into every caller, a few deep chains in
  /// one function crashed Swift 6.3's optimizer). A type of your own keeps
  /// the default.
  ///
  /// ```swift
  /// var state = App.State()
  /// let discard = search.reduceAsChild(&state, .search(.query("swift")))
  /// // the same as search.reduceReportingDiscards(&state, .search(.query("swift")))
  /// ```
  func reduceAsChild(_ state: inout State, _ event: Event) -> String?
  /// The feature as a ``Feature``: its reducer one closure around this
  /// value's.
  var feature: Feature<State, Event> { get }
}

extension FeatureProtocol {
  /// Reduces as ``reduceReportingDiscards(_:_:)`` does.
  @inlinable @inline(__always)
  public func reduceAsChild(_ state: inout State, _ event: Event) -> String? {
    reduceReportingDiscards(&state, event)
  }

  /// The feature as a ``Feature``: its reducer calls this value's, which the
  /// compiler specialized in the module that composed it, and a chain of
  /// lifts inlines into it.
  @inlinable
  public var feature: Feature<State, Event> { Feature(name: name, reducer: composedReducer, feedbacks: feedbacks) }

  /// This feature's reduction, one closure around it: the chain of lifts
  /// below inlines into the closure.
  @inlinable
  var composedReducer: Reducer<State, Event> {
    let box = ComposedFeatureBox(self)
    return Reducer(body: { box.composed.reduceAsChild(&$0, $1) })
  }
}

/// A composed feature behind a reference: captured by value, a feature ten
/// levels deep (300 bytes) was copied out of the closure's context on every
/// event (the event-case lifts benchmark in BENCHMARKS.md); borrowed from a class's constant by
/// inlined code, it is not. (Passed to a function that is not inlined, it
/// is copied still: hence the reducer of ``FeatureProtocol/feature`` calls
/// the chain, which inlines into it.)
@usableFromInline
final class ComposedFeatureBox<Composed: FeatureProtocol>: Sendable {
  @usableFromInline let composed: Composed

  @inlinable
  init(_ composed: Composed) { self.composed = composed }
}

extension Feature: FeatureProtocol {
  @inlinable @inline(__always)
  public func reduceReportingDiscards(_ state: inout State, _ event: Event) -> String? {
    reducer.body(&state, event)
  }

  /// This feature.
  @inlinable
  public var feature: Feature<State, Event> { self }
}

extension System {
  /// Starts a system running a composed `feature`, plus any `feedbacks` of
  /// the root that need not be lifted: as with a ``Feature``, the reducer
  /// composed by the compiler.
  ///
  /// ```swift
  /// let system = System(initial: App.State(), feature: app, feedbacks: [.input(buttons)])
  /// ```
  @inlinable
  public convenience init<Composed: FeatureProtocol<State, Event>>(
    initial: consuming State,
    feature: Composed,
    feedbacks: [Feedback<State, Event>] = [],
    isolation: SystemIsolation = .sendingThread,
    environment: SystemEnvironment = SystemEnvironment(),
    monitor: SystemMonitor<State, Event>? = nil,
    caller: isolated (any Actor)? = #isolation
  ) {
    self.init(
      initial: initial, feature: feature.feature, feedbacks: feedbacks, isolation: isolation,
      environment: environment, monitor: monitor, caller: caller)
  }
}
