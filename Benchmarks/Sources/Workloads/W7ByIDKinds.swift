import FeedbackLoop

/// W7pred, W7event, W7requests: W7 with the child's query feedback replaced
/// by a feedback of another kind (a predicate, an event-triggered feedback,
/// a keyed feedback of requests), lifted by id over 1,000 children, each
/// event for one child, the children taken in turn; and each kind's child
/// alone as a system (W7predsingle, W7eventsingle, W7requestssingle). The
/// predicate and the requests start an effect (`.none`) every eighth tick
/// of their child, as W7's query does; the event feedback is asked at every
/// event and answers `.none`. The bound is W7's: at most three times W7single (and
/// three times the kind's own single).
extension Composition {
  /// The three kinds, each as W7's child with that feedback.
  enum Kind: String, CaseIterable {
    case pred, event, requests

    var feature: Feature<Child.State, Child.Event> {
      switch self {
      case .pred:
        Feature(
          name: "child", reducer: Reducer { state, _ in state.count += 1 },
          feedbacks: [.predicate({ $0.count % 8 == 0 }, whenFalse: .keepRunning) { _ in .none }])
      case .event:
        Feature(
          name: "child", reducer: Reducer { state, _ in state.count += 1 },
          feedbacks: [.onEvent { _, _ in .none }])
      case .requests:
        Feature(
          name: "child", reducer: Reducer { state, _ in state.count += 1 },
          feedbacks: [.requests({ [$0.count / 8] }) { _ in .none }])
      }
    }
  }

  /// W7<kind>: the kind's child lifted by id over 1,000 children.
  static func byIDKind(_ kind: Kind) -> Workload {
    Workload(
      id: "W7\(kind.rawValue)",
      summary: "W7 with a \(kind.rawValue) feedback in the child, lifted by id over 1000 children",
      operations: eventCount, runs: 9,
      makeTrial: {
        let children = 1_000
        let feature = kind.feature.lifted(children: \Parent.children, event: IntoChild()).feature
        let initial = Parent(
          children: TrackedDictionary(Dictionary(uniqueKeysWithValues: (0..<children).map { ($0, Child.State()) })))
        let system = System(initial: initial, feature: feature)
        let events = (0..<eventCount).map { ParentEvent.child($0 % children, .tick) }
        let expected = eventCount / children
        return Trial(
          run: { system.send(contentsOf: events) },
          finish: {
            check(system.state.children[0]?.count == expected, "W7\(kind.rawValue) ended early")
            system.stop()
          })
      })
  }

  /// W7<kind>single: the kind's child alone, as a system.
  static func singleKind(_ kind: Kind) -> Workload {
    Workload(
      id: "W7\(kind.rawValue)single", summary: "the child of W7\(kind.rawValue) alone, as a system",
      operations: eventCount, runs: 9,
      makeTrial: {
        let system = System(initial: Child.State(), feature: kind.feature)
        let events = [Child.Event](repeating: .tick, count: eventCount)
        return Trial(
          run: { system.send(contentsOf: events) },
          finish: {
            check(system.state.count == eventCount, "W7\(kind.rawValue)single ended early")
            system.stop()
          })
      })
  }

  /// The by-id workloads of the three kinds and their singles.
  public static let byIDKinds: [Workload] = Kind.allCases.flatMap { [byIDKind($0), singleKind($0)] }
}
