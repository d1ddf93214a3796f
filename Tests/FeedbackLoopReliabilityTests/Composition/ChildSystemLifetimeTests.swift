import FeedbackLoop
import FeedbackLoopTesting
import Foundation
import Testing

extension Reliability {
  /// G9 for child systems and lifted features: a parent stopped or released
  /// with children and child effects in flight leaves nothing behind.
  @Suite("Composition lifetime")
  struct ChildSystemLifetimeTests {
    enum Event: Sendable, Equatable {
      case add(Int)
      case remove(Int)
      case child(Int, Int)
      case outcome(Int)
    }

    struct State: Sendable, Equatable {
      var ids: TrackedDictionary<Int, Int> = [:]
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .add(let id): state.ids[id] = id
      case .remove(let id): state.ids[id] = nil
      case .child, .outcome: break
      }
    }

    /// A parent whose children each run an effect that waits forever; the
    /// children's reducers and effects hold sentinels.
    static func makeParent(
      _ harness: Harness, children: ChildSystems<Int, Int, Int>, freed: Counter, cancelled: Counter
    ) -> System<State, Event> {
      let environment = harness.environment
      return System(
        initial: State(), reduce: reduce,
        feedbacks: [
          .childSystems(
            children, for: \.ids,
            make: { _, _ in
              let sentinel = Sentinel(freed)
              return System(
                initial: 0,
                reduceReturning: { (count: Int, step: Int) -> Int in
                  _ = sentinel
                  return count + step
                },
                feedbacks: [
                  Feedback.query({ $0 > 0 ? 1 : nil }) { _ in
                    .run { send in
                      try await withTaskCancellationHandler {
                        try await send.clock.sleep(for: .seconds(1_000_000))
                      } onCancel: {
                        cancelled.add()
                      }
                    }
                  }
                ],
                environment: environment)
            },
            route: { if case .child(let id, let step) = $0 { (id, step) } else { nil } },
            outcome: { id, count in count > 1 ? .outcome(id) : nil })
        ],
        environment: environment)
    }

    @Test("G9 releasing a parent with 100 children, each with an effect in flight, stops and frees them all")
    func test_G9_releasedParentFreesChildren() throws {
      let harness = Harness()
      let (freed, cancelled) = (Counter(), Counter())
      let children = ChildSystems<Int, Int, Int>()
      var weakChildren: [Weak<System<Int, Int>>] = []
      var weakParent = Weak<System<State, Event>>()
      do {
        let parent = Self.makeParent(harness, children: children, freed: freed, cancelled: cancelled)
        weakParent.object = parent
        for id in 0..<100 { parent.send(.add(id)) }
        for id in 0..<100 { parent.send(.child(id, 1)) }
        // The effects start running and wait on the clock: in flight. (An
        // effect whose task has not run yet when its system stops never
        // runs its body, so its cancellation handler is never installed.)
        harness.settle()
        #expect(children.count == 100)
        weakChildren = children.ids.compactMap { children[$0] }.map { Weak(object: $0) }
        #expect(weakChildren.allSatisfy { $0.object?.runningTaskCount == 1 })
      }
      harness.settle()
      #expect(weakParent.object == nil)
      #expect(children.count == 0)
      #expect(weakChildren.allSatisfy { $0.object == nil })
      #expect(freed.value == 100)
      #expect(cancelled.value == 100)
      reportFigure(
        "composition: 100 children released with their parent: \(freed.value) freed, \(cancelled.value) effects cancelled"
      )
    }

    @Test("G9 children removed one by one and re-added leave no task and no system behind")
    func test_G9_churnLeavesNothing() throws {
      let harness = Harness()
      let (freed, cancelled) = (Counter(), Counter())
      let children = ChildSystems<Int, Int, Int>()
      let parent = Self.makeParent(harness, children: children, freed: freed, cancelled: cancelled)
      let rounds = Scale.pick(200, sanitized: 40)
      for round in 0..<rounds {
        parent.send(.add(round % 10))
        parent.send(.child(round % 10, 2))
        harness.settle()
        parent.send(.remove(round % 10))
        harness.settle()
      }
      #expect(children.count == 0)
      #expect(parent.runningTaskCount == 0)
      #expect(freed.value == rounds)
      #expect(cancelled.value == rounds)
      parent.stop()
      reportFigure("composition: \(rounds) children added, used and removed: \(freed.value) freed, 0 tasks left")
    }

    @Test("G9 G2 events routed to children from 8 threads while the parent stops: nothing crashes, every child stops")
    func test_G9_stopWhileRoutingFromThreads() async throws {
      let (freed, cancelled) = (Counter(), Counter())
      let children = ChildSystems<Int, Int, Int>()
      let environment = SystemEnvironment()
      let parent = System(
        initial: State(), reduce: Self.reduce,
        feedbacks: [
          .childSystems(
            children, for: \.ids,
            make: { _, _ in
              let sentinel = Sentinel(freed)
              return System(
                initial: 0,
                reduceReturning: { (count: Int, step: Int) -> Int in
                  _ = sentinel
                  return count + step
                }, environment: environment)
            },
            route: { if case .child(let id, let step) = $0 { (id, step) } else { nil } },
            outcome: { _, _ in nil })
        ],
        environment: environment)
      for id in 0..<8 { parent.send(.add(id)) }
      let sent = Counter()
      let sends = Scale.pick(2_000, sanitized: 200)
      try await withThrowingTaskGroup(of: Void.self) { group in
        for thread in 0..<8 {
          group.addTask {
            for _ in 0..<sends {
              parent.send(.child(thread, 1))
              sent.add()
            }
          }
        }
        group.addTask {
          await sent.wait(untilAtLeast: sends * 4)
          parent.stop()
        }
        try await group.waitForAll()
      }
      #expect(parent.isStopped)
      #expect(children.count == 0)
      #expect(cancelled.value == 0)
    }
  }
}
