import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Testing

/// Children stopped together stop in the order they were started, on every
/// run: a dictionary replaced wholesale (its change log cannot say which ids
/// went) and the parent stopping must not stop them in the dictionary's
/// order, which follows the process's random hashing seed.
@Suite(.runsLeftoverJobs) struct ChildSystemStopOrderTests {
  /// A parent whose requests are added one by one or replaced wholesale.
  enum Parent {
    struct State: Sendable, Equatable {
      var ids: TrackedDictionary<Int, String> = [:]
    }

    enum Event: Sendable, Equatable {
      case add(Int)
      case replace(keeping: [Int])
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .add(let id): state.ids[id] = "\(id)"
      case .replace(let kept):
        state.ids = TrackedDictionary(Dictionary(uniqueKeysWithValues: kept.map { ($0, "\($0)") }))
      }
    }
  }

  struct Probe {
    let harness = Harness()
    let children = ChildSystems<Int, Int, Int>()
    let stops = Log<Int>()
    let system: System<Parent.State, Parent.Event>

    init() {
      let (environment, stops) = (harness.environment, stops)
      system = System(
        initial: Parent.State(), reduce: Parent.reduce,
        feedbacks: [
          .childSystems(
            children, for: \.ids,
            make: { id, _ in
              System(
                initial: 0, reduce: { count, step in count += step }, environment: environment,
                monitor: SystemMonitor { activity in
                  if case .stopped = activity { stops.append(id) }
                })
            },
            outcome: { _, _ in nil })
        ],
        environment: harness.environment)
    }

    func send(_ events: [Parent.Event]) {
      for event in events { system.send(event) }
      harness.settle()
    }
  }

  /// Forty ids in an order of no pattern (a fixed permutation): the
  /// dictionary's order matching it by chance has a chance of 1 in 40!.
  static let startOrder = (0..<40).map { ($0 * 17 + 5) % 40 }

  @Test("G6 children removed by a wholesale replacement stop in the order they were started")
  func test_G6_replacementStopsInStartOrder() {
    let probe = Probe()
    probe.send(Self.startOrder.map(Parent.Event.add))
    #expect(Set(probe.children.ids) == Set(Self.startOrder))
    let kept = Self.startOrder.filter { $0 % 3 == 0 }
    probe.send([.replace(keeping: kept)])
    #expect(probe.stops.entries == Self.startOrder.filter { $0 % 3 != 0 })
    #expect(Set(probe.children.ids) == Set(kept))
  }

  @Test("G9 stopping the parent stops its children in the order they were started")
  func test_G9_parentStopStopsChildrenInStartOrder() {
    let probe = Probe()
    probe.send(Self.startOrder.map(Parent.Event.add))
    probe.system.stop()
    probe.harness.settle()
    #expect(probe.stops.entries == Self.startOrder)
    #expect(probe.children.count == 0)
  }

  @Test("G9 a child re-added after a replacement is stopped by its new start's place, not its first")
  func test_G9_restartedChildTakesItsNewPlace() {
    let probe = Probe()
    probe.send([.add(1), .add(2), .add(3)])
    probe.send([.replace(keeping: [2, 3])])
    probe.send([.add(1)])
    #expect(probe.stops.entries == [1])
    probe.system.stop()
    probe.harness.settle()
    #expect(probe.stops.entries == [1, 2, 3, 1])
  }
}
