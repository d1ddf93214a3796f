import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Testing

/// The store's scoping on a composed feature: a child view gets a store of
/// the child feature, whose events go through the parent's lifted reducers.
@MainActor
@Suite("Scoping a composed feature", .runsLeftoverJobs)
struct ComposedFeatureScopeTests {
  enum Tally {
    struct State: Sendable, Equatable { var count = 0 }
    enum Event: Sendable, Equatable { case add(Int) }
    static let feature = Feature<State, Event>(
      name: "tally",
      reducer: Reducer { state, event in
        switch event {
        case .add(let amount): state.count += amount
        }
      },
      feedbacks: [.predicate({ $0.count == 1 }, whenFalse: .keepRunning) { _ in .send(.add(10)) }])
  }

  enum Board {
    struct State: Sendable, Equatable {
      var main = Tally.State()
      var rows: TrackedDictionary<Int, Tally.State> = [1: Tally.State(), 2: Tally.State()]
    }
    enum Event: Sendable, Equatable {
      case main(Tally.Event)
      case row(Int, Tally.Event)
    }
    static let toMain = EventPath<Event, Tally.Event>(
      embed: Event.main, extract: { if case .main(let event) = $0 { event } else { nil } })
    static let toRow = ChildEventPath<Event, Int, Tally.Event>(
      embed: Event.row, extract: { if case .row(let id, let event) = $0 { (id, event) } else { nil } })
    static let feature = Feature.combine(
      name: "board",
      Tally.feature.lifted(state: \State.main, event: toMain).feature,
      Tally.feature.lifted(children: \State.rows, event: toRow).feature)
  }

  @Test("a child view's store of a lifted feature reads the child and sends through the parent's feature")
  func scopedStoreOfALiftedFeature() throws {
    let store = Store(System(initial: Board.State(), feature: Board.feature, isolation: .mainActor))
    let main = store.scope(state: \.main, event: Board.toMain.embed)
    main.send(.add(1))
    // The lifted predicate feedback ran in the parent: 1 → 11.
    #expect(main.count == 11)
    #expect(store.state.main.count == 11)
    let row = try #require(store.scope(unwrapping: { $0.rows[2] }, event: { Board.toRow.embed(2, $0) }))
    row.send(.add(1))
    #expect(row.count == 11)
    #expect(store.state.rows[1]?.count == 0)
    #expect(store.state.rows[2]?.count == 11)
  }
}
