import FeedbackLoop
import FeedbackLoopUI
import Observation

/// W12scoped: W12's counter at the bottom of a state nested 1, 5 and 10
/// levels deep, and the events sent to a store scoped down to it, level by
/// level (`scope(state: \.inner, event: .inner)`), as a view tree hands each
/// child view a store of its part. Beside W12 (the root store's send) in
/// the same run: a scoped store's send should not grow with its depth.
///
/// W12read and W12scopedread-N read the store's state after each send, as
/// a view that re-renders does: the store then compares each state and
/// tells Observation of the change.
public enum ScopedStoreSend {
  public static let eventCount = 20_000

  public static func workload(depth: Int) -> Workload {
    Workload(
      id: "W12scoped-\(depth)", summary: "20,000 sends to a store scoped \(depth) levels deep",
      operations: eventCount, runs: 11,
      makeTrial: { MainActor.assumeIsolated { trial(depth: depth, readEach: false) } })
  }

  public static func readingWorkload(depth: Int) -> Workload {
    Workload(
      id: depth == 0 ? "W12read" : "W12scopedread-\(depth)",
      summary: "20,000 sends to a store scoped \(depth) levels deep, its state read after each",
      operations: eventCount, runs: 11,
      makeTrial: { MainActor.assumeIsolated { trial(depth: depth, readEach: true) } })
  }

  /// W12nested-10: W12scoped-10's state and events, the events wrapped ten
  /// levels deep beforehand and sent to the root store: what the root's
  /// send of that state costs, without the scoped stores' way up.
  public static let nestedRootWorkload = Workload(
    id: "W12nested-10", summary: "20,000 sends of events wrapped 10 levels deep to the root store of W12scoped-10",
    operations: eventCount, runs: 11,
    makeTrial: { MainActor.assumeIsolated { nestedRootTrial() } })

  @MainActor
  static func nestedRootTrial() -> Trial {
    let five = Depth5(inner: .init(inner: .init(inner: .init(inner: .init(inner: CountState())))))
    let root = Store(
      initial: Depth10(inner: .init(inner: .init(inner: .init(inner: .init(inner: five))))),
      reduce: Depth10.reduce)
    let events: [NestedEvent<NestedEvent<NestedEvent<NestedEvent<NestedEvent<Depth5Event>>>>>] =
      Counter.events(count: eventCount).map { event in
        .inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(event))))))))))
      }
    let expected = Counter.finalState(count: eventCount)
    return Trial(
      run: { @MainActor in
        for event in events { root.send(event) }
      },
      finish: { @MainActor in
        let count = root.state.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner.count
        check(count == expected, "W12nested-10 ended at \(count)")
        root.stop()
      })
  }

  @MainActor
  static func trial(depth: Int, readEach: Bool) -> Trial {
    switch depth {
    case 0:
      let root = Store(initial: CountState(), reduce: CountState.reduce)
      return trial(root: root, leaf: root, readEach: readEach)
    case 1:
      let root = Store(initial: Nested<CountState>(inner: CountState()), reduce: Nested<CountState>.reduce)
      return trial(root: root, leaf: scopeIn(root), readEach: readEach)
    case 5:
      let root = Store(
        initial: Depth5(inner: .init(inner: .init(inner: .init(inner: .init(inner: CountState()))))),
        reduce: Depth5.reduce)
      return trial(root: root, leaf: scopeIn(scopeIn(scopeIn(scopeIn(scopeIn(root))))), readEach: readEach)
    case 10:
      let five = Depth5(inner: .init(inner: .init(inner: .init(inner: .init(inner: CountState())))))
      let root = Store(
        initial: Depth10(inner: .init(inner: .init(inner: .init(inner: .init(inner: five))))),
        reduce: Depth10.reduce)
      let middle = scopeIn(scopeIn(scopeIn(scopeIn(scopeIn(root)))))
      return trial(root: root, leaf: scopeIn(scopeIn(scopeIn(scopeIn(scopeIn(middle))))), readEach: readEach)
    default:
      fatalError("W12scoped: no workload \(depth) levels deep")
    }
  }

  /// One level down: the store of `inner`, sending through `.inner`.
  @MainActor
  static func scopeIn<Inner: ScopedLevel>(_ store: Store<Nested<Inner>, NestedEvent<Inner.LevelEvent>>)
    -> Store<Inner, Inner.LevelEvent>
  {
    store.scope(state: \.inner, event: NestedEvent.inner)
  }

  @MainActor
  static func trial<Root, RootEvent>(
    root: Store<Root, RootEvent>, leaf: Store<CountState, CounterEvent>, readEach: Bool
  )
    -> Trial
  {
    let events = Counter.events(count: eventCount)
    let expected = Counter.finalState(count: eventCount)
    return Trial(
      run: { @MainActor in
        if readEach {
          var seen = 0
          for event in events {
            leaf.send(event)
            seen &+= leaf.state.count
          }
          _ = opaque(seen)
        } else {
          for event in events { leaf.send(event) }
        }
      },
      finish: { @MainActor in
        check(leaf.state.count == expected, "W12scoped ended at \(leaf.state.count)")
        check(!root.isStopped, "W12scoped: the root stopped")
        root.stop()
      })
  }
}

/// A level of W12scoped's state: what a parent feature holds beside its
/// child.
protocol ScopedLevel: Equatable, Sendable {
  associatedtype LevelEvent: Sendable
  static func reduce(_ state: inout Self, _ event: LevelEvent)
}

extension CountState: ScopedLevel {
  typealias LevelEvent = CounterEvent
}

struct Nested<Inner: ScopedLevel>: ScopedLevel {
  var own = 0
  var inner: Inner

  @Sendable
  static func reduce(_ state: inout Nested, _ event: NestedEvent<Inner.LevelEvent>) {
    switch event {
    case .inner(let event): Inner.reduce(&state.inner, event)
    case .own: state.own += 1
    }
  }
}

enum NestedEvent<Inner: Sendable>: Sendable {
  case inner(Inner)
  case own
}

typealias Depth5 = Nested<Nested<Nested<Nested<Nested<CountState>>>>>
typealias Depth10 = Nested<Nested<Nested<Nested<Nested<Depth5>>>>>
typealias Depth5Event = NestedEvent<NestedEvent<NestedEvent<NestedEvent<NestedEvent<CounterEvent>>>>>
