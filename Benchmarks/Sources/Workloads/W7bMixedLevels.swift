import FeedbackLoop

/// W7bmix: W7bcase-10's child feature through ten levels of three shapes, so
/// that neither the offsets nor the optional test are free: five levels
/// with the child at a byte offset other than 0, then an optional level
/// whose state also holds children by id (lifted beside it, and combined),
/// then four more padded levels. The cost per event should stay near
/// W7bcase-1's; and the release build of this workload is the compile check
/// of such a tree (a deep mix of shapes once crashed the release compiler).
extension Composition {
  /// A level whose child is not at offset 0.
  public struct PaddedLevel<Inner: Sendable & Equatable>: Sendable, Equatable {
    public var before = 0
    public var inner: Inner
    public var after = 0
  }

  /// A level whose child is optional, beside children by id.
  public struct OptionalLevel<Inner: Sendable & Equatable>: Sendable, Equatable {
    public var inner: Inner?
    public var others: TrackedDictionary<Int, Child.State> = [:]
  }

  /// The events of an optional level: its child's, or one of the others'.
  public enum OptionalLevelEvent<Inner: Sendable>: Sendable {
    case inner(Inner)
    case other(Int, Child.Event)
  }

  /// The way to an optional level's child, as a type.
  public struct IntoOptionalLevel<Inner: Sendable>: EventCase {
    public func embed(_ event: Inner) -> OptionalLevelEvent<Inner> { .inner(event) }
    public func extract(_ event: OptionalLevelEvent<Inner>) -> Inner? {
      if case .inner(let event) = event { event } else { nil }
    }
  }

  /// The way to one of an optional level's other children, as a type.
  public struct IntoOtherChild<Inner: Sendable>: ChildEventCase {
    public func embed(_ id: Int, _ event: Child.Event) -> OptionalLevelEvent<Inner> { .other(id, event) }
    public func extract(_ event: OptionalLevelEvent<Inner>) -> (Int, Child.Event)? {
      if case .other(let id, let event) = event { (id, event) } else { nil }
    }
  }

  static func pad<Inner: FeatureProtocol>(
    _ feature: Inner
  ) -> LiftedFeature<Inner, PaddedLevel<Inner.State>, IntoLevel<Inner.Event>> where Inner.State: Equatable {
    feature.lifted(state: \PaddedLevel<Inner.State>.inner, event: IntoLevel())
  }

  static func optionalBesideOthers<Inner: FeatureProtocol>(
    _ feature: Inner
  ) -> some FeatureProtocol<OptionalLevel<Inner.State>, OptionalLevelEvent<Inner.Event>> where Inner.State: Equatable {
    feature.lifted(optional: \OptionalLevel<Inner.State>.inner, event: IntoOptionalLevel())
      .combined(with: Child.feature.lifted(children: \OptionalLevel<Inner.State>.others, event: IntoOtherChild()))
  }

  /// W7bmix-10; W7bmixid-10 sends its events to one of the children by id
  /// instead (four padded levels above them), alternating between the two.
  public static let mixedLevels = mixed(toChildrenByID: false)
  public static let mixedLevelsByID = mixed(toChildrenByID: true)

  static func mixed(toChildrenByID: Bool) -> Workload {
    Workload(
      id: toChildrenByID ? "W7bmixid-10" : "W7bmix-10",
      summary: "the child feature through ten levels: padded, optional beside children by id, padded"
        + (toChildrenByID ? "; the events for the children by id" : ""),
      operations: eventCount, runs: 9,
      makeTrial: {
        let five = pad(pad(pad(pad(pad(Child.feature)))))
        let ten = pad(pad(pad(pad(optionalBesideOthers(five)))))
        let innerFive = PaddedLevel(
          inner: PaddedLevel(inner: PaddedLevel(inner: PaddedLevel(inner: PaddedLevel(inner: Child.State())))))
        let optional = OptionalLevel(inner: innerFive, others: [1: Child.State(), 2: Child.State()])
        let initial = PaddedLevel(inner: PaddedLevel(inner: PaddedLevel(inner: PaddedLevel(inner: optional))))
        if toChildrenByID {
          typealias Five = LevelEvent<LevelEvent<LevelEvent<LevelEvent<LevelEvent<Child.Event>>>>>
          let events = (0..<eventCount).map {
            index -> LevelEvent<LevelEvent<LevelEvent<LevelEvent<OptionalLevelEvent<Five>>>>> in
            .inner(.inner(.inner(.inner(.other(1 + index % 2, .tick)))))
          }
          let system = System(initial: initial, feature: ten)
          return Trial(
            run: { system.send(contentsOf: events) },
            finish: {
              let others = system.state.inner.inner.inner.inner.others
              let count = (others[1]?.count ?? 0) + (others[2]?.count ?? 0)
              check(count == eventCount, "W7bmixid-10 ended at \(count)")
              system.stop()
            })
        }
        return deepTrial(
          ten, initial: initial,
          event: .inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.tick)))))))))),
          count: { $0.inner.inner.inner.inner.inner?.inner.inner.inner.inner.inner.count ?? -1 })
      })
  }
}
