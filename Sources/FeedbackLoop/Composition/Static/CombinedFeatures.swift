/// Two features over one state, as one: the first's reducer runs, then the
/// second's on the state the first left; the first's feedbacks see each
/// state before the second's. `Feature.combine(name:_:)`
/// does the same for ``Feature`` values; this keeps both types, so that the
/// compiler inlines both reducers into one. Combine more by combining again.
///
/// ```swift
/// let app = Feature(name: "app", reducer: Reducer(App.reduce))
///   .combined(with: Search.feature.lifted(state: \App.State.search, event: ToSearch()))
///   .combined(with: Player.feature.lifted(optional: \App.State.player, event: ToPlayer()))
/// ```
public struct CombinedFeatures<First: FeatureProtocol, Second: FeatureProtocol>: FeatureProtocol
where First.State == Second.State, First.Event == Second.Event {
  public typealias State = First.State
  public typealias Event = First.Event

  public let name: String
  @usableFromInline let first: First
  @usableFromInline let second: Second

  /// The two features, run in this order, as one named `name`.
  @inlinable
  public init(name: String, _ first: First, _ second: Second) {
    self.name = name
    self.first = first
    self.second = second
  }

  /// The first's feedbacks, then the second's.
  @inlinable
  public var feedbacks: [LiftableFeedback<State, Event>] { first.feedbacks + second.feedbacks }

  @inlinable
  public func reduceReportingDiscards(_ state: inout State, _ event: Event) -> String? {
    let firstDiscard = first.reduceReportingDiscards(&state, event)
    let secondDiscard = second.reduceReportingDiscards(&state, event)
    return Reducer<State, Event>.merged(firstDiscard, secondDiscard)
  }
}

extension FeatureProtocol {
  /// This feature, then `other`, as one named `name` (this one's name if
  /// `nil`).
  ///
  /// ```swift
  /// let app = Feature(name: "app", reducer: Reducer(App.reduce))
  ///   .combined(with: Search.feature.lifted(state: \App.State.search, event: ToSearch()))
  /// ```
  @inlinable
  public func combined<Other: FeatureProtocol>(
    with other: Other, name: String? = nil
  ) -> CombinedFeatures<Self, Other> where Other.State == State, Other.Event == Event {
    CombinedFeatures(name: name ?? self.name, self, other)
  }
}
