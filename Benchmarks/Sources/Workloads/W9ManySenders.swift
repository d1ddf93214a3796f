import FeedbackLoop
import Synchronization

/// W9: eight threads send 100,000 events each to one system (the counter),
/// at once. Beside it, the same fold behind one `Mutex` (W9mutex) and in an
/// `actor` fed by eight tasks (W9actor).
public enum ManySenders {
  public static let threadCount = 8
  public static let eventsPerThread = 100_000
  static var operations: Int { threadCount * eventsPerThread }
  static var expected: Int { operations }

  public static let workload = Workload(
    id: "W9", summary: "8 threads x 100,000 sends to one system", operations: operations, runs: 7,
    makeTrial: {
      let system = System(initial: 0, reduce: Counter.reduce)
      let threads = GatedThreads(threadCount) { _ in
        for _ in 0..<eventsPerThread { system.send(.increment) }
      }
      return Trial(
        run: {
          threads.start()
          threads.join()
        },
        finish: {
          // Every sender has returned: whoever owned the loop drained it.
          check(system.state == expected, "W9 ended at \(system.state)")
          system.stop()
        })
    })

  public static let mutexFold = Workload(
    id: "W9mutex", summary: "8 threads x 100,000 folds of the counter behind one Mutex", operations: operations,
    runs: 7,
    makeTrial: {
      let state = Mutex(0)
      let reduce = opaque(Counter.reduce)
      let threads = GatedThreads(threadCount) { _ in
        for _ in 0..<eventsPerThread { state.withLock { $0 = reduce($0, .increment) } }
      }
      return Trial(
        run: {
          threads.start()
          threads.join()
        },
        finish: { check(state.withLock { $0 } == expected, "W9mutex ended at \(state.withLock { $0 })") })
    })

  actor Fold {
    var state = 0
    let reduce = opaque(Counter.reduce)
    func send(_ event: CounterEvent) { state = reduce(state, event) }
  }

  public static let actorFold = Workload(
    id: "W9actor", summary: "8 tasks x 100,000 folds of the counter in one actor", operations: operations, runs: 7,
    makeTrial: {
      let fold = Fold()
      return Trial(
        run: {
          await withTaskGroup(of: Void.self) { group in
            for _ in 0..<threadCount {
              group.addTask {
                for _ in 0..<eventsPerThread { await fold.send(.increment) }
              }
            }
          }
        },
        finish: {
          let state = await fold.state
          check(state == expected, "W9actor ended at \(state)")
        })
    })
}
