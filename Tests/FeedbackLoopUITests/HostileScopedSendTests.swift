import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Foundation
import Observation
import Testing

/// Red-team tests of a scoped store's send (`EventRoute`): mappings that
/// send through stores of other depths, stop the root, or cross to another
/// root; `send(contentsOf:)`, projections and `scope(unwrapping:)` deep in
/// the tree; sends from change callbacks at several depths; a store scoped
/// from a stopped root. Each checks the order of the reductions, and that
/// no event is lost, reduced twice, or reaches another root.
@MainActor
@Suite("Hostile scoped sends", .runsLeftoverJobs)
struct HostileScopedSendTests {
  typealias Screen = ScopedSendTests.Screen
  typealias ScreenEvent = ScopedSendTests.ScreenEvent
  typealias Panel = ScopedSendTests.Panel
  typealias PanelEvent = ScopedSendTests.PanelEvent
  typealias Field = ScopedSendTests.Field
  typealias FieldEvent = ScopedSendTests.FieldEvent

  func makeStores() -> (Store<Screen, ScreenEvent>, Store<Panel, PanelEvent>, Store<Field, FieldEvent>) {
    let root = Store(initial: Screen(), reduce: ScopedSendTests.reduce)
    let panel = root.scope(state: \.panel, event: ScreenEvent.panel)
    let field = panel.scope(state: \.field, event: PanelEvent.field)
    return (root, panel, field)
  }

  @Test(
    "a depth-2 mapping that sends through the root, a depth-1 and a depth-2 store: theirs first, in order, then its own"
  )
  func mappingSendsThroughEveryDepth() {
    let (root, panel, field) = makeStores()
    let noisy = panel.scope(
      state: \.field,
      event: { (event: FieldEvent) -> PanelEvent in
        root.send(.note("r"))
        panel.send(.tap)
        field.send(.type("f"))
        return .field(event)
      })
    noisy.send(.type("n"))
    #expect(root.state.log == ["r", "tap", "type f", "type n"])
    #expect(field.state.text == "fn")
    root.stop()
  }

  @Test("a depth-1 mapping that sends through a depth-2 store, under a depth-2 send: the inner first, each once")
  func intermediateMappingSendsThroughADeepStore() {
    let (root, _, field) = makeStores()
    let noisyPanel = root.scope(
      state: \.panel,
      event: { (event: PanelEvent) -> ScreenEvent in
        field.send(.type("f"))
        return .panel(event)
      })
    let deep = noisyPanel.scope(state: \.field, event: PanelEvent.field)
    deep.send(.type("d"))
    noisyPanel.send(.tap)
    #expect(root.state.log == ["type f", "type d", "type f", "tap"])
    // The function form of the scope parks as well.
    let deepByFunction = noisyPanel.scope(state: { $0.field }, event: PanelEvent.field)
    deepByFunction.send(.type("g"))
    #expect(root.state.log.suffix(2) == ["type f", "type g"])
    #expect(deep.state.text == "fdffg")
    root.stop()
  }

  typealias Four = DeepScopeTests.Level<DeepScopeTests.Level<DeepScopeTests.Level<DeepScopeTests.Level<Int>>>>
  typealias FourEvent = DeepScopeTests.LevelEvent<
    DeepScopeTests.LevelEvent<DeepScopeTests.LevelEvent<DeepScopeTests.LevelEvent<Int>>>
  >

  @Test("a mapping five levels down, under a ten-level send, that sends through the ten-level leaf and a depth-1 store")
  func mappingInADeepChainSendsThroughOtherDepths() {
    let reduced = Recorder<String>()
    let root = Store(
      initial: DeepScopeTests.initial, reduce: DeepScopeTests.reduceTen,
      monitor: SystemMonitor { activity in
        if case .reduced(let event, _, _, _) = activity { reduced.append("\(event)") }
      })
    let one = DeepScopeTests.down(root)
    let five: Store<DeepScopeTests.Five, DeepScopeTests.FiveEvent> =
      DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(one))))
    let leaf: Store<Int, Int> =
      DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(five)))))
    let noisy: Store<Four, FourEvent> = five.scope(
      state: \.inner,
      event: { (event: FourEvent) -> DeepScopeTests.FiveEvent in
        leaf.send(100)
        one.send(.own)
        return .inner(event)
      })
    let noisyLeaf: Store<Int, Int> =
      DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(noisy))))
    noisyLeaf.send(1)
    #expect(reduced.entries.count == 3)
    #expect(leaf.state == 101)
    #expect(noisyLeaf.state == 101)
    #expect(one.state.own == 1)
    #expect(root.state.own == 0)
    if reduced.entries.count == 3 {
      #expect(reduced.entries[0].contains("inner(100)"))
      #expect(reduced.entries[1].contains("own"))
      #expect(reduced.entries[2].contains("inner(1)"))
    }
    root.stop()
  }

  @Test("a mapping that stops the root: its event and every later one dropped, none delivered later")
  func mappingStopsTheRoot() {
    let (root, panel, field) = makeStores()
    field.send(.type("before"))
    let stopping = panel.scope(
      state: \.field,
      event: { (event: FieldEvent) -> PanelEvent in
        root.stop()
        return .field(event)
      })
    stopping.send(.type("during"))
    field.send(.type("after"))
    root.send(.note("after"))
    #expect(root.state.log == ["type before"])
    #expect(stopping.isStopped && field.isStopped && panel.isStopped && root.isStopped)
    // A store scoped from the stopped root now.
    let late = root.scope(state: \.panel, event: ScreenEvent.panel).scope(state: \.field, event: PanelEvent.field)
    late.send(.type("late"))
    #expect(late.isStopped)
    #expect(root.state.log == ["type before"])
  }

  @Test("a mapping that sends through a stopped root's store, then into a live root: each root only its own")
  func mappingSendsIntoAStoppedRoot() {
    let (rootA, _, fieldA) = makeStores()
    let (rootB, panelB, _) = makeStores()
    rootA.stop()
    let crossing = panelB.scope(
      state: \.field,
      event: { (event: FieldEvent) -> PanelEvent in
        fieldA.send(.type("to stopped A"))
        return .field(event)
      })
    crossing.send(.type("b"))
    #expect(rootA.state.log.isEmpty)
    #expect(rootB.state.log == ["type b"])
    rootB.stop()
  }

  @Test("send(contentsOf:) through a deep store whose mapping sends: interleaved, each once, in order")
  func sendContentsOfWithASendingMapping() {
    let (root, panel, _) = makeStores()
    var count = 0
    let noisy = panel.scope(
      state: \.field,
      event: { (event: FieldEvent) -> PanelEvent in
        count += 1
        root.send(.note("m\(count)"))
        return .field(event)
      })
    noisy.send(contentsOf: [.type("a"), .type("b"), .type("c")])
    #expect(root.state.log == ["m1", "type a", "m2", "type b", "m3", "type c"])
    // Through a projection of the noisy store: the same route.
    let view = noisy.project { $0.text.count }
    view.send(.type("p"))
    #expect(root.state.log.suffix(2) == ["m4", "type p"])
    #expect(view.state == 4)
    root.stop()
  }

  @Test("two roots whose deep mappings send to each other: each event reaches its own root once, in order")
  func twoRootsMappingIntoEachOther() {
    let (rootA, panelA, fieldA) = makeStores()
    let (rootB, panelB, fieldB) = makeStores()
    let noisyB = panelB.scope(
      state: \.field,
      event: { (event: FieldEvent) -> PanelEvent in
        fieldA.send(.type("toA"))
        return .field(event)
      })
    let noisyA = panelA.scope(
      state: \.field,
      event: { (event: FieldEvent) -> PanelEvent in
        noisyB.send(.type("x"))  // which sends to A, then to B
        fieldB.send(.type("toB"))
        return .field(event)
      })
    noisyA.send(.type("a"))
    noisyB.send(.type("b"))
    #expect(rootA.state.log == ["type toA", "type a", "type toA"])
    #expect(rootB.state.log == ["type x", "type toB", "type b"])
    rootA.stop()
    rootB.stop()
  }

  @Test(
    "G2 change callbacks of stores at depths 0, 1 and 2 that send through deep noisy stores during a delivery: queued after it, in order, once each"
  )
  func changeCallbacksAtSeveralDepthsSend() {
    let (root, panel, field) = makeStores()
    let noisy = panel.scope(
      state: \.field,
      event: { (event: FieldEvent) -> PanelEvent in
        root.send(.note("m"))
        return .field(event)
      })
    var fired: [String] = []
    withObservationTracking {
      _ = field.state
    } onChange: {
      MainActor.assumeIsolated {
        fired.append("field")
        noisy.send(.type("2"))
      }
    }
    withObservationTracking {
      _ = panel.state
    } onChange: {
      MainActor.assumeIsolated {
        fired.append("panel")
        noisy.send(.type("1"))
      }
    }
    withObservationTracking {
      _ = root.state
    } onChange: {
      MainActor.assumeIsolated {
        fired.append("root")
        noisy.send(.type("0"))
      }
    }
    field.send(.type("x"))
    #expect(fired.sorted() == ["field", "panel", "root"])
    let log = root.state.log
    #expect(log.first == "type x")
    #expect(log.count == 7)
    #expect(log.filter { $0 == "m" }.count == 3)
    // Each mapping's note comes right before its own event.
    for (index, entry) in log.enumerated() where entry.hasPrefix("type ") && index > 0 {
      #expect(log[index - 1] == "m")
    }
    #expect(Set(log.filter { $0 != "m" }) == ["type x", "type 0", "type 1", "type 2"])
    root.stop()
  }

  final class Holder<Value: AnyObject> {
    var value: Value?
  }

  @Test(
    "a mapping that releases the last reference to its own store and the root: its event is reduced once, then the tree goes"
  )
  func mappingReleasesTheStore() {
    let reduced = Recorder<String>()
    weak var weakRoot: Store<Screen, ScreenEvent>?
    weak var weakDeep: Store<Field, FieldEvent>?
    let holder = Holder<Store<Field, FieldEvent>>()
    do {
      let root = Store(
        initial: Screen(), reduce: ScopedSendTests.reduce,
        monitor: SystemMonitor { activity in
          if case .reduced(let event, _, _, _) = activity { reduced.append("\(event)") }
        })
      let panel = root.scope(state: \.panel, event: ScreenEvent.panel)
      weakRoot = root
      holder.value = panel.scope(
        state: \.field,
        event: { [holder] (event: FieldEvent) -> PanelEvent in
          holder.value = nil
          return .field(event)
        })
      weakDeep = holder.value
    }
    #expect(weakRoot != nil)
    holder.value?.send(.type("x"))
    #expect(holder.value == nil)
    #expect(reduced.entries.count == 1)
    #expect(weakDeep == nil)
    #expect(weakRoot == nil)
  }

  @Test("the async send(contentsOf:) through a deep store whose mapping sends: interleaved, each once, in order")
  func asyncSendContentsOfWithASendingMapping() async {
    let (root, panel, _) = makeStores()
    let noisy = panel.scope(
      state: \.field,
      event: { (event: FieldEvent) -> PanelEvent in
        root.send(.note("m"))
        return .field(event)
      })
    let (stream, continuation) = AsyncStream<FieldEvent>.makeStream()
    for text in ["a", "b", "c"] { continuation.yield(.type(text)) }
    continuation.finish()
    await noisy.send(contentsOf: stream)
    #expect(root.state.log == ["m", "type a", "m", "type b", "m", "type c"])
    root.stop()
  }

  @Test(
    "G9 a change callback of a deep store that stops the root, then sends through a deep noisy store: nothing more reduced"
  )
  func changeCallbackStopsTheRootThenSends() {
    let (root, panel, field) = makeStores()
    let noisy = panel.scope(
      state: \.field,
      event: { (event: FieldEvent) -> PanelEvent in
        root.send(.note("m"))
        return .field(event)
      })
    withObservationTracking {
      _ = field.state
    } onChange: {
      MainActor.assumeIsolated {
        root.stop()
        noisy.send(.type("late"))
      }
    }
    field.send(.type("x"))
    noisy.send(.type("later"))
    #expect(root.state.log == ["type x"])
    #expect(noisy.isStopped)
  }

  struct Sheeted: Equatable, Sendable {
    var log: [String] = []
    var sheet: Sheet? = nil
  }

  struct Sheet: Equatable, Sendable {
    var panel = Panel()
  }

  enum SheetedEvent: Sendable {
    case open
    case close
    case sheet(PanelEvent)
  }

  @Sendable
  nonisolated static func reduceSheeted(_ state: inout Sheeted, _ event: SheetedEvent) {
    switch event {
    case .open:
      state.sheet = Sheet()
      state.log.append("open")
    case .close:
      state.sheet = nil
      state.log.append("close")
    case .sheet(let event):
      guard state.sheet != nil else {
        state.log.append("no sheet")
        return
      }
      var screen = Screen(log: [], panel: state.sheet!.panel)
      ScopedSendTests.reduce(&screen, .panel(event))
      state.sheet!.panel = screen.panel
      state.log += screen.log
    }
  }

  @Test("scope(unwrapping:) then two levels below it: sends park and deliver once, across the sheet's going and coming")
  func unwrappingDeepInTheTree() throws {
    let root = Store(initial: Sheeted(), reduce: Self.reduceSheeted)
    #expect(root.scope(unwrapping: { $0.sheet }, event: SheetedEvent.sheet) == nil)
    root.send(.open)
    let sheet = try #require(
      root.scope(
        unwrapping: { $0.sheet?.panel },
        event: { (event: PanelEvent) -> SheetedEvent in .sheet(event) }))
    let field = sheet.scope(state: \.field, event: PanelEvent.field)
    let unwrappedField = try #require(
      sheet.scope(unwrapping: { $0.field }, event: { (event: FieldEvent) -> PanelEvent in .field(event) }))
    field.send(.type("a"))
    unwrappedField.send(.type("b"))
    root.send(.close)
    field.send(.type("c"))  // no sheet: reduced, does nothing
    #expect(field.state.text == "ab")  // kept its last part
    root.send(.open)
    unwrappedField.send(.type("d"))
    #expect(root.state.log == ["open", "type a", "type b", "close", "no sheet", "open", "type d"])
    #expect(unwrappedField.state.text == "d")
    root.stop()
  }
}
