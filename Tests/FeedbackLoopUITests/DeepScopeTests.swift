import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Observation
import Testing

/// Stores scoped many levels deep: a send reaches the root once, whatever
/// the depth; each store's readers hear of a change of their part once; and
/// a store nobody reads derives no state until it is read, so that a send
/// costs the same at any depth.
@MainActor
@Suite("Deep scopes: a send at any depth costs one reduction, and reaches each reader once", .runsLeftoverJobs)
struct DeepScopeTests {
  /// A level of the state: a value of its own beside the level below.
  struct Level<Inner: Equatable & Sendable>: Equatable, Sendable {
    var own = 0
    var inner: Inner
  }

  enum LevelEvent<Inner: Sendable>: Sendable {
    case inner(Inner)
    case own
  }

  typealias Five = Level<Level<Level<Level<Level<Int>>>>>
  typealias Ten = Level<Level<Level<Level<Level<Five>>>>>
  typealias FiveEvent = LevelEvent<LevelEvent<LevelEvent<LevelEvent<LevelEvent<Int>>>>>
  typealias TenEvent = LevelEvent<LevelEvent<LevelEvent<LevelEvent<LevelEvent<FiveEvent>>>>>

  static func level<Inner>(_ inner: Inner) -> Level<Inner> { Level(inner: inner) }

  static let initial: Ten = level(level(level(level(level(level(level(level(level(level(0))))))))))

  /// Reduces a level's event: `.own` at its level, an `Int` at the bottom.
  nonisolated static func reduce<Inner, InnerEvent>(
    _ state: inout Level<Inner>, _ event: LevelEvent<InnerEvent>, _ inner: (inout Inner, InnerEvent) -> Void
  ) {
    switch event {
    case .inner(let event): inner(&state.inner, event)
    case .own: state.own += 1
    }
  }

  @Sendable
  nonisolated static func reduceTen(_ state: inout Ten, _ event: TenEvent) {
    let add: (inout Int, Int) -> Void = { $0 += $1 }
    reduce(&state, event) { s, e in
      reduce(&s, e) { s, e in
        reduce(&s, e) { s, e in
          reduce(&s, e) { s, e in
            reduce(&s, e) { s, e in
              reduce(&s, e) { s, e in
                reduce(&s, e) { s, e in
                  reduce(&s, e) { s, e in reduce(&s, e) { s, e in reduce(&s, e, add) } }
                }
              }
            }
          }
        }
      }
    }
  }

  static func down<Inner, InnerEvent>(_ store: Store<Level<Inner>, LevelEvent<InnerEvent>>) -> Store<Inner, InnerEvent>
  {
    store.scope(state: \.inner, event: LevelEvent.inner)
  }

  /// The same level, through a function that counts its calls.
  static func down<Inner, InnerEvent>(
    _ store: Store<Level<Inner>, LevelEvent<InnerEvent>>, counting calls: Recorder<Int>
  ) -> Store<Inner, InnerEvent> {
    store.scope(
      state: { (level: Level<Inner>) -> Inner in
        calls.append(1)
        return level.inner
      }, event: LevelEvent.inner)
  }

  @Test("a send to a store ten levels deep is reduced once, and each reader of a changed part hears of it once")
  func deepSendReachesRootAndReadersOnce() async {
    let reductions = Recorder<String>()
    let root = Store(
      initial: Self.initial, reduce: Self.reduceTen,
      monitor: SystemMonitor { activity in
        if case .reduced = activity { reductions.append("reduced") }
      })
    let middle: Store<Five, FiveEvent> = Self.down(Self.down(Self.down(Self.down(Self.down(root)))))
    let leaf: Store<Int, Int> = Self.down(Self.down(Self.down(Self.down(Self.down(middle)))))
    let states = leaf.states
    let rootReader = Tracker { _ = root.state }
    let middleReader = Tracker { _ = middle.state }
    let middleOwnReader = Tracker { _ = middle.own }
    let leafReader = Tracker { _ = leaf.state }
    let before = reductions.entries.count

    leaf.send(5)

    #expect(reductions.entries.count == before + 1, "one reduction for one send")
    #expect(leaf.state == 5)
    #expect(middle.state.inner.inner.inner.inner.inner == 5)
    #expect(root.state.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner == 5)
    #expect(rootReader.count == 1)
    #expect(middleReader.count == 1)
    #expect(leafReader.count == 1)
    #expect(middleOwnReader.count == 0, "a member that did not change notified its reader")
    // A change above the leaf's part: the leaf's reader hears nothing.
    leafReader.rearm()
    middle.send(.own)
    #expect(leafReader.count == 1)
    #expect(middleOwnReader.count == 1)
    #expect(middle.own == 1 && leaf.state == 5)
    root.stop()
    var seen: [Int] = []
    for await state in states { seen.append(state) }
    #expect(seen == [0, 5], "the leaf's sequence saw each of its states once")
  }

  @Test("a deep store nobody reads derives no state per send; read, it derives the current one")
  func unreadStoresDeriveNothing() {
    let calls = Recorder<Int>()
    let root = Store(initial: Self.initial, reduce: Self.reduceTen)
    let middle: Store<Five, FiveEvent> = Self.down(
      Self.down(
        Self.down(Self.down(Self.down(root, counting: calls), counting: calls), counting: calls),
        counting: calls), counting: calls)
    let leaf: Store<Int, Int> = Self.down(
      Self.down(
        Self.down(Self.down(Self.down(middle, counting: calls), counting: calls), counting: calls),
        counting: calls), counting: calls)
    let made = calls.entries.count
    for _ in 0..<100 { leaf.send(1) }
    #expect(calls.entries.count == made, "stores nobody reads derived their states on each send")
    #expect(leaf.state == 100)
    #expect(calls.entries.count == made + 10, "one derivation per level, when read")
    #expect(middle.state.inner.inner.inner.inner.inner == 100)
    #expect(calls.entries.count == made + 10, "read again with no new state: nothing derived")
    leaf.send(1)
    #expect(leaf.state == 101 && middle.inner.inner.inner.inner.inner == 101)
  }

  @Test("a deep store read through key paths follows the root, and stops with it")
  func keyPathStoresFollowAndStop() {
    let root = Store(initial: Self.initial, reduce: Self.reduceTen)
    let leaf: Store<Int, Int> = Self.down(
      Self.down(Self.down(Self.down(Self.down(Self.down(Self.down(Self.down(Self.down(Self.down(root))))))))))
    let reader = Tracker { _ = leaf.state }
    for _ in 0..<3 { root.send(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(.inner(2))))))))))) }
    #expect(reader.count == 1)
    #expect(leaf.state == 6)
    root.send(.own)
    #expect(leaf.state == 6)
    leaf.send(1)
    root.stop()
    #expect(leaf.isStopped)
    leaf.send(1)
    #expect(leaf.state == 7, "the last state before the stop")
  }

  @Test("G3 a change callback of a deep store reads a store nobody followed, and finds the new state; it may stop")
  func callbackReadsUnfollowedStoreAndStops() {
    let root = Store(initial: Self.initial, reduce: Self.reduceTen)
    let middle: Store<Five, FiveEvent> = Self.down(Self.down(Self.down(Self.down(Self.down(root)))))
    let leaf: Store<Int, Int> = Self.down(Self.down(Self.down(Self.down(Self.down(middle)))))
    let sibling: Store<Int, Int> = Self.down(Self.down(Self.down(Self.down(Self.down(middle)))))
    let seen = Recorder<Int>()
    withObservationTracking {
      _ = leaf.state
    } onChange: {
      MainActor.assumeIsolated {
        seen.append(middle.state.inner.inner.inner.inner.inner)
        seen.append(sibling.state)
        // A send from the callback is reduced after this state, never inside it.
        leaf.send(10)
        seen.append(leaf.state)
      }
    }
    let follower = Tracker { _ = sibling.state }
    leaf.send(3)
    #expect(seen.entries == [3, 3, 3])
    #expect(leaf.state == 13 && sibling.state == 13)
    #expect(follower.count == 1)
    withObservationTracking {
      _ = leaf.state
    } onChange: {
      MainActor.assumeIsolated { root.stop() }
    }
    leaf.send(1)
    #expect(leaf.isStopped && sibling.isStopped && middle.isStopped)
    #expect(leaf.state == 14 && sibling.state == 14)
    leaf.send(1)
    #expect(root.state.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner == 14)
  }
  @Test(
    "at depths 1, 5 and 10, a scoped store's event changes its own part only, its readers hear of it once, other depths' readers not; after a stop its sends are discarded"
  )
  func eachDepthSendsToItsOwnPart() {
    let root = Store(initial: Self.initial, reduce: Self.reduceTen)
    let one = Self.down(root)
    let five: Store<Five, FiveEvent> = Self.down(Self.down(Self.down(Self.down(one))))
    let ten: Store<Int, Int> = Self.down(Self.down(Self.down(Self.down(Self.down(five)))))
    let oneReader = Tracker { _ = one.own }
    let fiveReader = Tracker { _ = five.own }
    let tenReader = Tracker { _ = ten.state }

    one.send(.own)
    #expect(root.state.inner.own == 1 && root.state.own == 0)
    #expect(one.own == 1 && five.own == 0 && ten.state == 0)
    #expect(oneReader.count == 1 && fiveReader.count == 0 && tenReader.count == 0)
    oneReader.rearm()

    five.send(.own)
    #expect(root.state.inner.inner.inner.inner.inner.own == 1)
    #expect(one.own == 1 && five.own == 1 && ten.state == 0)
    #expect(oneReader.count == 1 && fiveReader.count == 1 && tenReader.count == 0)
    fiveReader.rearm()

    ten.send(4)
    #expect(root.state.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner == 4)
    #expect(one.own == 1 && five.own == 1 && ten.state == 4)
    #expect(oneReader.count == 1 && fiveReader.count == 1 && tenReader.count == 1)
    tenReader.rearm()

    root.stop()
    one.send(.own)
    five.send(.own)
    ten.send(4)
    #expect(one.isStopped && five.isStopped && ten.isStopped)
    #expect(one.own == 1 && five.own == 1 && ten.state == 4, "a stopped store's sends are discarded")
    #expect(root.state.inner.inner.inner.inner.inner.inner.inner.inner.inner.inner == 4)
  }
}
