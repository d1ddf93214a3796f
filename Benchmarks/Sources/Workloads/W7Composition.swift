import FeedbackLoop

/// W7: a parent of children by id, the child a feature (reducer and a query
/// feedback) lifted over a `TrackedDictionary`; each event is for one child,
/// the children taken in turn. The cost per event should not depend on the
/// number of children (W7-100, W7, W7-10000), and stay within three times
/// W7single, the child feature run alone as a system of its own.
///
/// W7b: the same child feature lifted 1, 5 and 10 levels deep, each level a
/// struct around the next and an enum case around its events: the cost per
/// event should be flat in the depth. W7b-N lifts through closures
/// (`EventPath`), W7bcase-N through an `EventCase`, the type-level path
/// that the compiler composes into one reducer; both run the same feature,
/// states and events.
public enum Composition {
  public static let eventCount = 100_000

  /// The child: a counter whose query feedback asks for a load every eighth
  /// tick (the effect is `.none`: the cost measured is the loop's, not a task's).
  public enum Child {
    public struct State: Sendable, Equatable {
      public var count = 0
    }

    public enum Event: Sendable, Equatable { case tick }

    public static let feature = Feature<State, Event>(
      name: "child",
      reducer: Reducer { state, _ in state.count += 1 },
      feedbacks: [.query({ $0.count / 8 }) { _ in .none }])
  }

  public struct Parent: Sendable, Equatable {
    public var children: TrackedDictionary<Int, Child.State>
    public var sent = 0
  }

  public enum ParentEvent: Sendable, Equatable {
    case child(Int, Child.Event)
  }

  static let toChild = ChildEventPath<ParentEvent, Int, Child.Event>(
    embed: ParentEvent.child, extract: { if case .child(let id, let event) = $0 { (id, event) } else { nil } })

  /// The way to a child by id, as a type.
  public struct IntoChild: ChildEventCase {
    public func embed(_ id: Int, _ event: Child.Event) -> ParentEvent { .child(id, event) }
    public func extract(_ event: ParentEvent) -> (Int, Child.Event)? {
      if case .child(let id, let event) = event { (id, event) } else { nil }
    }
  }

  /// W7 at `children` children (`W7` for 1,000); through an `EventCase`
  /// (`W7case`) if `throughCase`.
  public static func workload(children: Int, throughCase: Bool = false) -> Workload {
    Workload(
      id: (throughCase ? "W7case" : "W7") + (children == 1_000 ? "" : "-\(children)"),
      summary: "a child feature lifted by id over \(children) children"
        + (throughCase ? " through a ChildEventCase" : "") + ", each event for one child",
      operations: eventCount, runs: 9,
      makeTrial: {
        let feature =
          throughCase
          ? Child.feature.lifted(children: \Parent.children, event: IntoChild()).feature
          : Child.feature.lifted(children: \Parent.children, event: toChild).feature
        let initial = Parent(
          children: TrackedDictionary(Dictionary(uniqueKeysWithValues: (0..<children).map { ($0, Child.State()) })))
        let system = System(initial: initial, feature: feature)
        let events = (0..<eventCount).map { ParentEvent.child($0 % children, .tick) }
        let expected = eventCount / children + (eventCount % children > 0 ? 1 : 0)
        return Trial(
          run: { system.send(contentsOf: events) },
          finish: {
            check(
              system.state.children[0]?.count == expected, "W7 ended at \(String(describing: system.state.children[0]))"
            )
            system.stop()
          })
      })
  }

  /// W7single: the child feature alone, as a system of its own.
  public static let single = Workload(
    id: "W7single", summary: "the child feature of W7 alone, as a system", operations: eventCount, runs: 9,
    makeTrial: {
      let system = System(initial: Child.State(), feature: Child.feature)
      let events = [Child.Event](repeating: .tick, count: eventCount)
      return Trial(
        run: { system.send(contentsOf: events) },
        finish: {
          check(system.state.count == eventCount, "W7single ended at \(system.state.count)")
          system.stop()
        })
    })

  /// One level of nesting: a struct around the inner state, an enum case
  /// around the inner events.
  public struct Level<Inner: Sendable & Equatable>: Sendable, Equatable {
    public var inner: Inner
  }

  public enum LevelEvent<Inner: Sendable>: Sendable {
    case inner(Inner)
  }

  static func nest<State: Sendable & Equatable, Event: Sendable>(
    _ feature: Feature<State, Event>
  ) -> Feature<Level<State>, LevelEvent<Event>> {
    feature.lifted(
      state: \Level<State>.inner,
      event: EventPath(embed: LevelEvent.inner, extract: { if case .inner(let event) = $0 { event } else { nil } })
    ).feature
  }

  /// One level's event case, as a type.
  public struct IntoLevel<Inner: Sendable>: EventCase {
    public func embed(_ event: Inner) -> LevelEvent<Inner> { .inner(event) }
    public func extract(_ event: LevelEvent<Inner>) -> Inner? {
      if case .inner(let event) = event { event } else { nil }
    }
  }

  static func nestThroughCase<Inner: FeatureProtocol>(
    _ feature: Inner
  ) -> LiftedFeature<Inner, Level<Inner.State>, IntoLevel<Inner.Event>> where Inner.State: Equatable {
    feature.lifted(state: \Level<Inner.State>.inner, event: IntoLevel())
  }

  static func deepTrial<State: Sendable & Equatable, Event: Sendable>(
    _ feature: some FeatureProtocol<State, Event>, initial: State, event: Event,
    count: @escaping @Sendable (State) -> Int
  ) -> Trial {
    let system = System(initial: initial, feature: feature)
    let events = [Event](repeating: event, count: eventCount)
    return Trial(
      run: { system.send(contentsOf: events) },
      finish: {
        check(count(system.state) == eventCount, "W7b ended at \(count(system.state))")
        system.stop()
      })
  }

  /// W7b at 1, 5 and 10 levels.
  public static func deep(levels: Int) -> Workload {
    Workload(
      id: "W7b-\(levels)", summary: "the child feature lifted \(levels) levels deep, each event through all",
      operations: eventCount, runs: 9,
      makeTrial: {
        let one = nest(Child.feature)
        let start = Level(inner: Child.State())
        switch levels {
        case 1:
          return deepTrial(one, initial: start, event: .inner(.tick), count: { $0.inner.count })
        case 5:
          let five = nest(nest(nest(nest(one))))
          let initial = Level(inner: Level(inner: Level(inner: Level(inner: start))))
          return deepTrial(
            five, initial: initial, event: .inner(.inner(.inner(.inner(.inner(.tick))))),
            count: { $0.inner.inner.inner.inner.inner.count })
        default:
          let ten = nest(nest(nest(nest(nest(nest(nest(nest(nest(one)))))))))
          let initial = Level(
            inner: Level(
              inner: Level(
                inner: Level(inner: Level(inner: Level(inner: Level(inner: Level(inner: Level(inner: start)))))))))
          return deepTrial(
            ten, initial: initial,
            event: .inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.tick)))))))))),
            count: { $0.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner.count })
        }
      })
  }

  /// W7bcase at 1, 5 and 10 levels: W7b, lifted through an `EventCase`.
  public static func deepThroughCase(levels: Int) -> Workload {
    Workload(
      id: "W7bcase-\(levels)",
      summary: "the child feature lifted \(levels) levels deep through an EventCase, each event through all",
      operations: eventCount, runs: 9,
      makeTrial: {
        let one = nestThroughCase(Child.feature)
        let start = Level(inner: Child.State())
        switch levels {
        case 1:
          return deepTrial(one, initial: start, event: .inner(.tick), count: { $0.inner.count })
        case 5:
          let five = nestThroughCase(nestThroughCase(nestThroughCase(nestThroughCase(one))))
          let initial = Level(inner: Level(inner: Level(inner: Level(inner: start))))
          return deepTrial(
            five, initial: initial, event: .inner(.inner(.inner(.inner(.inner(.tick))))),
            count: { $0.inner.inner.inner.inner.inner.count })
        default:
          let ten = nestThroughCase(
            nestThroughCase(
              nestThroughCase(
                nestThroughCase(
                  nestThroughCase(nestThroughCase(nestThroughCase(nestThroughCase(nestThroughCase(one)))))))))
          let initial = Level(
            inner: Level(
              inner: Level(
                inner: Level(inner: Level(inner: Level(inner: Level(inner: Level(inner: Level(inner: start)))))))))
          return deepTrial(
            ten, initial: initial,
            event: .inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.tick)))))))))),
            count: { $0.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner.count })
        }
      })
  }
}
