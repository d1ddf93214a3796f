import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Observation
import Testing

/// G3 for views: every store holds the new state before any change
/// callback runs, so a callback that reads the store (another member, the
/// whole state, a scoped store, a projection, a store it scopes there) reads
/// the new state; and the hostile callbacks: one that sends, one that stops.
@MainActor
@Suite("Change callbacks read the new state", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct ChangeCallbackReadTests {
  typealias Pair = RedTeamPair.Pair

  /// What the callbacks saw.
  final class Seen: @unchecked Sendable {
    // Sendable: touched on the main actor only (the callbacks run there,
    // synchronously inside the store's send).
    var values: [Int] = []
    var notified = 0
  }

  func makeStore() -> Store<Pair, RedTeamPair.PairEvent> {
    Store(initial: Pair(), reduce: RedTeamPair.reduce)
  }

  /// Arms a tracking of `read` whose callback runs `onChange` on the main
  /// actor.
  func whenChanged(_ read: @escaping @MainActor () -> Void, _ onChange: @escaping @MainActor () -> Void) {
    withObservationTracking {
      read()
    } onChange: {
      MainActor.assumeIsolated { onChange() }
    }
  }

  @Test("G3 a member read from the whole state's change callback reads the new value")
  func memberReadFromStateCallback() {
    let store = makeStore()
    let seen = Seen()
    whenChanged({ _ = store.state }) { seen.values.append(store.first) }
    store.send(.both(1))
    #expect(seen.values == [1])
  }

  @Test("G3 the whole state read from a member's change callback is the new state")
  func stateReadFromMemberCallback() {
    let store = makeStore()
    let seen = Seen()
    _ = store.state
    whenChanged({ _ = store.first }) { seen.values.append(store.state.second) }
    store.send(.both(1))
    #expect(seen.values == [1])
  }

  @Test(
    "G3 G2 a send from a member's change callback is queued; the callback reads the new state, and a view it arms hears of the queued change"
  )
  func sendFromMemberCallback() {
    let store = makeStore()
    let seen = Seen()
    whenChanged({ _ = store.first }) {
      seen.values.append(store.second)
      withObservationTracking {
        _ = store.second
      } onChange: {
        seen.notified += 1
      }
      store.send(.both(5))
      // Queued behind the event being told (G2): still the same state.
      seen.values.append(store.second)
    }
    store.send(.both(1))
    #expect(seen.values == [1, 1])
    #expect(seen.notified == 1)
    #expect(store.first == 5)
    #expect(store.second == 5)
  }

  @Test("G3 a scoped store read from the parent's member callback holds its new part")
  func scopedStoreReadFromParentCallback() {
    let store = makeStore()
    let child = store.scope(state: \.second, event: { (value: Int) in RedTeamPair.PairEvent.first(value) })
    let grandchild = child.scope(state: { $0 * 10 }, event: { (value: Int) in value })
    let sum = store.project { $0.first + $0.second }
    let seen = Seen()
    whenChanged({ _ = store.first }) {
      seen.values.append(child.state)
      seen.values.append(grandchild.state)
      seen.values.append(sum.state)
    }
    store.send(.both(1))
    #expect(seen.values == [1, 10, 2])
  }

  @Test("G3 the parent read from a scoped store's change callback holds the new state")
  func parentReadFromScopedCallback() {
    let store = makeStore()
    let child = store.scope(state: \.second, event: { (value: Int) in RedTeamPair.PairEvent.first(value) })
    let seen = Seen()
    whenChanged({ _ = child.state }) { seen.values.append(store.first) }
    store.send(.both(1))
    #expect(seen.values == [1])
  }

  @Test("G3 a store scoped from inside a change callback starts from the new state and follows the next")
  func storeScopedInCallback() {
    let store = makeStore()
    let seen = Seen()
    var scoped: Store<Int, Int>?
    whenChanged({ _ = store.first }) {
      let child = store.scope(state: \.second, event: { (value: Int) in RedTeamPair.PairEvent.first(value) })
      scoped = child
      seen.values.append(child.state)
    }
    store.send(.both(1))
    #expect(seen.values == [1])
    store.send(.both(2))
    #expect(scoped?.state == 2)
  }

  @Test(
    "G3 G9 a stop from the parent's change callback: the scoped store keeps the state the system stopped in, and its view is told"
  )
  func stopFromParentCallback() {
    let store = makeStore()
    let child = store.scope(state: \.second, event: { (value: Int) in RedTeamPair.PairEvent.first(value) })
    let childView = Tracker { _ = child.state }
    whenChanged({ _ = store.first }) { store.stop() }
    store.send(.both(1))
    #expect(store.isStopped)
    #expect(child.isStopped)
    #expect(child.state == store.second)
    #expect(child.state == 1)
    #expect(childView.count == 1)
    store.send(.both(2))
    #expect(child.state == 1)
  }

  @Test("G3 every changed member's view is told once per event, whatever the callbacks read")
  func eachChangedMemberToldOnce() {
    let store = makeStore()
    let firstView = Tracker { _ = store.first }
    let secondView = Tracker { _ = store.second }
    let seen = Seen()
    whenChanged({ _ = store.first }) { seen.values.append(store.first + store.second) }
    store.send(.both(3))
    #expect(firstView.count == 1)
    #expect(secondView.count == 1)
    #expect(seen.values == [6])
    firstView.rearm()
    secondView.rearm()
    store.send(.first(4))
    #expect(firstView.count == 2)
    #expect(secondView.count == 1)
  }
}
