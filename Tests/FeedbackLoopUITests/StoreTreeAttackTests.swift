import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Observation
import Testing

/// Scoped stores derive their state when read and share their root's
/// StoreTree: these tests read them at awkward moments (first in the
/// middle of a run, from another store's callback, through key paths that
/// have no byte offset), release them and stop the root from their
/// callbacks, and hold that every reader sees every state of its part, in
/// order, and is told of each change once.
@MainActor
@Suite("Store trees: scoped stores read at any moment see every state in order", .runsLeftoverJobs)
struct StoreTreeAttackTests {
  final class Shared: Sendable {
    let value: Int
    init(_ value: Int) { self.value = value }
  }

  struct Inner: Equatable, Sendable {
    var count = 0
    var label = "a"
    var doubled: Int { count * 2 }
  }

  struct State: Equatable, Sendable {
    var flag: UInt8 = 0
    var pair: (UInt8, Inner) = (0, Inner())
    var detail: Inner?
    var shared = Shared(0)
    var inner = Inner()

    static func == (lhs: State, rhs: State) -> Bool {
      lhs.flag == rhs.flag && lhs.pair.0 == rhs.pair.0 && lhs.pair.1 == rhs.pair.1 && lhs.detail == rhs.detail
        && lhs.shared === rhs.shared && lhs.inner == rhs.inner
    }
  }

  enum Event: Sendable {
    case count(Int)
    case pairCount(Int)
    case detail(Int?)
    case shared(Int)
    case flag
  }

  nonisolated static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .count(let count): state.inner.count = count
    case .pairCount(let count): state.pair.1.count = count
    case .detail(let count): state.detail = count.map { Inner(count: $0) }
    case .shared(let value): state.shared = Shared(value)
    case .flag: state.flag &+= 1
    }
  }

  func makeStore() -> Store<State, Event> {
    Store(initial: State(), reduce: Self.reduce)
  }

  @Test(
    "key paths with and without byte offsets (a tuple element, a computed member, through a reference) read the root's state"
  )
  func keyPathsOfEveryKind() {
    let root = makeStore()
    let pairInner = root.scope(state: \.pair.1, event: { (count: Int) in .pairCount(count) })
    let pairCount = pairInner.scope(state: \.count, event: { $0 })
    let doubled = root.scope(state: \.inner.doubled, event: { (count: Int) in .count(count) })
    let shared = root.scope(state: \.shared.value, event: { (value: Int) in .shared(value) })
    let whole = root.scope(state: \.self, event: { (event: Event) in event })
    let readers = [
      Tracker { _ = pairCount.state }, Tracker { _ = doubled.state }, Tracker { _ = shared.state },
    ]
    pairCount.send(4)
    doubled.send(5)
    shared.send(6)
    root.send(.flag)
    #expect(pairCount.state == 4 && pairInner.label == "a")
    #expect(doubled.state == 10)
    #expect(shared.state == 6)
    #expect(whole.state.flag == 1 && whole.state.pair.1.count == 4)
    #expect(readers.map(\.count) == [1, 1, 1], "each reader hears of its change once")
  }

  @Test("G3 a store first read in a change callback, mid-run, then tracked, hears of every later change once, in order")
  func firstReadMidRun() {
    let root = makeStore()
    let deep = root.scope(state: \.inner, event: { (count: Int) in .count(count) }).scope(
      state: { $0.count }, event: { $0 })
    let seen = Recorder<Int>()
    let lateReader = Slot<Tracker>()
    withObservationTracking {
      _ = root.flag
    } onChange: {
      MainActor.assumeIsolated {
        // First read, during the root's tell, of a store that derived
        // nothing since it was made.
        seen.append(deep.state)
        lateReader.value = Tracker { seen.append(deep.state) }
      }
    }
    for count in 1...3 { root.send(.count(count)) }  // unread: derives nothing
    root.send(.flag)
    #expect(seen.entries == [3, 3])
    for count in 4...6 {
      root.send(.count(count))
      #expect(lateReader.value?.count == count - 3)
      lateReader.value?.rearm()
    }
    root.send(.flag)
    #expect(lateReader.value?.count == 3, "a change of another part reached the deep store's reader")
    #expect(seen.entries == [3, 3, 4, 5, 6])
  }

  @Test("a reader that stops tracking and starts again, through the whole state or a member, misses no change after")
  func readersComeAndGo() {
    let root = makeStore()
    let inner = root.scope(state: { $0.inner }, event: { (count: Int) in .count(count) })
    let count = inner.scope(state: \.count, event: { $0 })
    var next = 0
    for gap in 0..<4 {
      // A reader of each kind reads, hears of one change, and leaves for
      // `gap` more states: its store is followed, then dormant, then gone
      // from the tree's list.
      let whole = Tracker { _ = count.state }
      let member = Tracker { _ = inner.count }
      next += 1
      root.send(.count(next))
      #expect(whole.count == 1 && member.count == 1)
      for _ in 0..<gap {
        next += 1
        root.send(.count(next))
        root.send(.flag)
      }
      #expect(count.state == next && inner.count == next, "a store read after \(gap) states it did not take")
      whole.rearm()
      member.rearm()
      root.send(.flag)
      #expect(whole.count == 1 && member.count == 1, "a change of another part notified")
      next += 1
      root.send(.count(next))
      #expect(whole.count == 2 && member.count == 2, "gap \(gap): a change was missed")
    }
  }

  @Test(
    "G3 an outside observer of the system, after the store, finds every scoped store holding its state, read or not")
  func outsideObserverFindsScopedStoresCurrent() {
    let system = System(initial: State(), reduce: Self.reduce, isolation: .mainActor)
    let root = Store(system)
    let deep = root.scope(state: \.inner, event: { (count: Int) in .count(count) }).scope(
      state: { $0.count }, event: { $0 })
    let pair = root.scope(state: \.pair.1.count, event: { (count: Int) in .pairCount(count) })
    let detail = Slot<Store<Inner, Int>>()
    let mismatches = Recorder<String>()
    let observation = system.observe { state in
      MainActor.assumeIsolated {
        if deep.state != state.inner.count { mismatches.append("deep \(deep.state) for \(state.inner.count)") }
        // Read every other state only: `pair` is followed, then not.
        if state.flag % 2 == 0, pair.state != state.pair.1.count { mismatches.append("pair") }
        if detail.value == nil, let scoped = root.scope(unwrapping: \.detail, event: { (count: Int) in .detail(count) })
        {
          detail.value = scoped
        }
        if let scoped = detail.value, let part = state.detail, scoped.state != part {
          mismatches.append("detail \(scoped.state.count) for \(part.count)")
        }
        // A send from the observer: reduced after this state, and observed.
        if state.inner.count == 3 { system.send(.count(4)) }
      }
    }
    for step in 1...12 {
      root.send(.count(step % 5))
      root.send(.flag)
      root.send(.pairCount(step))
      root.send(.detail(step % 3 == 0 ? nil : step))
    }
    #expect(mismatches.entries.isEmpty)
    #expect(deep.state == root.state.inner.count)
    observation.cancel()
  }

  @Test("an unwrapping scope keeps its last part through nil and takes the next; stores scoped from it read that part")
  func unwrappingThroughNil() async {
    let root = makeStore()
    root.send(.detail(1))
    guard let detail = root.scope(unwrapping: \.detail, event: { (count: Int) in .detail(count) }) else {
      Issue.record("no detail")
      return
    }
    let count = detail.scope(state: \.count, event: { $0 })
    let label = detail.scope(state: \.label, event: { (_: String) in 0 })
    let countStates = count.states
    let reader = Tracker { _ = count.state }
    root.send(.detail(nil))
    #expect(count.state == 1 && label.state == "a" && reader.count == 0)
    root.send(.flag)
    root.send(.detail(2))
    #expect(count.state == 2 && reader.count == 1)
    reader.rearm()
    root.send(.detail(nil))
    root.send(.detail(nil))
    root.send(.detail(2))
    #expect(reader.count == 1, "nil and back to the same part changed nothing the reader read")
    root.send(.detail(3))
    #expect(reader.count == 2 && count.state == 3)
    root.stop()
    var seen: [Int] = []
    for await state in countStates { seen.append(state) }
    #expect(seen == [1, 2, 3])
  }

  @Test("G3 a store read from another store's change callback holds the new state; the first may release the second")
  func readAndReleaseFromAnotherStoresCallback() {
    let root = makeStore()
    let first = root.scope(state: \.inner.count, event: { (count: Int) in .count(count) })
    let second = Slot(root.scope(state: \.inner.doubled, event: { (count: Int) in .count(count) }))
    let weakSecond = WeakSlot<Store<Int, Int>>()
    weakSecond.value = second.value
    let secondReader = Tracker { [weak weakSecond] in _ = weakSecond?.value?.state }
    let seen = Recorder<Int>()
    withObservationTracking {
      _ = first.state
    } onChange: {
      MainActor.assumeIsolated {
        seen.append(second.value?.state ?? -1)
        second.value = nil  // the last reference
      }
    }
    first.send(2)
    #expect(seen.entries == [4])
    #expect(secondReader.count == 1)
    first.send(3)
    #expect(first.state == 3)
    #expect(weakSecond.value == nil)
  }

  @Test("G9 stopping the root from a scoped store's callback: every store stops on the state that stopped it")
  func stopFromScopedCallback() {
    let root = makeStore()
    let first = root.scope(state: \.inner, event: { (count: Int) in .count(count) })
    let firstCount = first.scope(state: \.count, event: { $0 })
    let other = root.scope(state: { $0.inner.doubled }, event: { (count: Int) in .count(count) })
    let unread = root.scope(state: \.pair.1.count, event: { (count: Int) in .pairCount(count) })
    let otherReader = Tracker { _ = other.state }
    withObservationTracking {
      _ = firstCount.state
    } onChange: {
      MainActor.assumeIsolated {
        firstCount.stop()
        firstCount.send(100)
      }
    }
    root.send(.pairCount(7))
    firstCount.send(5)
    #expect(root.isStopped && first.isStopped && firstCount.isStopped && other.isStopped && unread.isStopped)
    #expect(firstCount.state == 5 && other.state == 10 && unread.state == 7)
    #expect(otherReader.count == 1)
    root.send(.count(1))
    #expect(root.state.inner.count == 5)
  }

  @Test("scoped stores made and dropped while the root runs leave no follower behind and read the current state")
  func scopesMadeAndDroppedWhileRunning() {
    let root = makeStore()
    let lastMade = WeakSlot<Store<Int, Int>>()
    withObservationTracking {
      _ = root.inner
    } onChange: {
      MainActor.assumeIsolated {
        let made = root.scope(state: \.inner.count, event: { (count: Int) in .count(count) })
        _ = made.state
        lastMade.value = made
      }
    }
    root.send(.count(1))
    #expect(lastMade.value == nil)
    for count in 2...50 {
      let scoped = root.scope(state: \.inner.count, event: { (count: Int) in .count(count) })
      let tracker = Tracker { _ = scoped.state }
      root.send(.count(count))
      #expect(tracker.count == 1 && scoped.state == count)
    }
    #expect(root.inner.count == 50)
  }
}

/// A cell a change callback can write.
@MainActor
final class Slot<Value> {
  var value: Value?
  init(_ value: Value? = nil) { self.value = value }
}

@MainActor
final class WeakSlot<Value: AnyObject> {
  weak var value: Value?
}
