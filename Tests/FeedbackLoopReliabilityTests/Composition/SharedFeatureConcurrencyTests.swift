import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// One composed feature value, run by two systems at once, each sent to
  /// from several threads: lifted reducers and feedbacks share nothing
  /// mutable between systems (G2 per system).
  @Suite("Composition across systems")
  struct SharedFeatureConcurrencyTests {
    struct Row: Sendable, Equatable { var count = 0 }
    struct Board: Sendable, Equatable {
      var rows: TrackedDictionary<Int, Row> = [0: Row(), 1: Row(), 2: Row(), 3: Row()]
      var extra: Row? = Row()
    }
    enum Event: Sendable, Equatable {
      case row(Int, Int)
      case extra(Int)
    }

    static let feature: Feature<Board, Event> = {
      let row = Feature<Row, Int>(
        name: "row", reducer: Reducer { row, step in row.count += step },
        feedbacks: [.query({ $0.count % 100 == 99 ? $0.count : nil }) { _ in .send(1) }])
      return .combine(
        name: "board",
        row.lifted(
          children: \Board.rows,
          event: ChildEventPath(
            embed: Event.row, extract: { if case .row(let id, let n) = $0 { (id, n) } else { nil } })
        ).feature,
        row.lifted(
          optional: \Board.extra,
          event: EventPath(embed: Event.extra, extract: { if case .extra(let n) = $0 { n } else { nil } })
        ).feature)
    }()

    /// A row's count after `sends` steps of 1, each count of the form
    /// 100k + 99 followed at once by the feedback's own step.
    static func expectedCount(after sends: Int) -> Int {
      var count = 0
      for _ in 0..<sends {
        count += 1
        if count % 100 == 99 { count += 1 }
      }
      return count
    }

    @Test(
      "G2 G4 one feature value in two systems, each sent to from 4 threads: every event reduced once, none lost")
    func test_G2_sharedFeatureAcrossSystems() async {
      let sends = Scale.pick(5_000, sanitized: 1_000)
      let expected = Self.expectedCount(after: sends)
      let systems = [System(initial: Board(), feature: Self.feature), System(initial: Board(), feature: Self.feature)]
      await withTaskGroup(of: Void.self) { group in
        for system in systems {
          for thread in 0..<4 {
            group.addTask {
              for _ in 0..<sends { system.send(.row(thread, 1)) }
              system.send(.extra(1))
            }
          }
        }
      }
      // Every sender has returned: each event was reduced by the thread that
      // sent it or by the one draining then, before that thread returned.
      // A feedback step queued behind a sender's next event is dropped when
      // that event changes the query (G4), so a row ends between every
      // sender's step counted once and every feedback step counted too.
      for system in systems {
        for id in 0..<4 {
          let count = system.state.rows[id]?.count ?? 0
          #expect((sends...expected).contains(count), "row \(id) ended at \(count)")
        }
        #expect(system.state.extra?.count == 4)
        system.stop()
      }
    }
  }
}
