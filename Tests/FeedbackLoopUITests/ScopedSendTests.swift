import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Foundation
import Observation
import Testing

/// A scoped store's send maps its event up to the root's, parks it at the
/// root, and sends it to the system once its levels have returned
/// (`EventRoute`). These tests attack the window between the two: sends
/// from inside a mapping, from change callbacks during the delivery,
/// through projections, after a stop.
@MainActor
@Suite("Scoped sends: mapped to the root's event, then sent from the store's own frame", .runsLeftoverJobs)
struct ScopedSendTests {
  struct Screen: Equatable, Sendable {
    var log: [String] = []
    var panel = Panel()
  }

  struct Panel: Equatable, Sendable {
    var taps = 0
    var field = Field()
  }

  struct Field: Equatable, Sendable {
    var text = ""
  }

  enum ScreenEvent: Sendable {
    case note(String)
    case panel(PanelEvent)
  }

  enum PanelEvent: Sendable {
    case tap
    case field(FieldEvent)
  }

  enum FieldEvent: Sendable {
    case type(String)
  }

  @Sendable
  nonisolated static func reduce(_ state: inout Screen, _ event: ScreenEvent) {
    switch event {
    case .note(let note): state.log.append(note)
    case .panel(.tap):
      state.panel.taps += 1
      state.log.append("tap")
    case .panel(.field(.type(let text))):
      state.panel.field.text += text
      state.log.append("type \(text)")
    }
  }

  func makeStores() -> (Store<Screen, ScreenEvent>, Store<Panel, PanelEvent>, Store<Field, FieldEvent>) {
    let root = Store(initial: Screen(), reduce: Self.reduce)
    let panel = root.scope(state: \.panel, event: ScreenEvent.panel)
    let field = panel.scope(state: \.field, event: PanelEvent.field)
    return (root, panel, field)
  }

  @Test("a mapping that sends through another store of the tree: its event is reduced first, then the outer one")
  func mappingSendsThroughAnotherStore() {
    let (root, panel, _) = makeStores()
    // A mapping closure is not meant to send, but nothing stops it: its own
    // send parks and delivers before the outer event is parked.
    let noisy = panel.scope(
      state: \.field,
      event: { (event: FieldEvent) -> PanelEvent in
        panel.send(.tap)
        return .field(event)
      })
    noisy.send(.type("a"))
    #expect(root.state.log == ["tap", "type a"])
    #expect(noisy.state.text == "a")
    #expect(panel.state.taps == 1)
    root.stop()
  }

  @Test(
    "G2 a send from a change callback during a scoped send's delivery is reduced right after it, before the send returns"
  )
  func sendFromChangeCallbackDuringDelivery() {
    let (root, panel, field) = makeStores()
    var fired = false
    withObservationTracking {
      _ = field.state
    } onChange: {
      MainActor.assumeIsolated {
        guard !fired else { return }
        fired = true
        // The root is reducing: this send is queued, not reduced here.
        panel.send(.tap)
        #expect(root.state.log == ["type x"] || root.state.log.isEmpty)
      }
    }
    field.send(.type("x"))
    #expect(fired)
    #expect(root.state.log == ["type x", "tap"])
    #expect(panel.state.taps == 1)
    root.stop()
  }

  @Test("a projection of a scoped store, and a store scoped from a projection, each send once through the root")
  func projectionsSendThroughTheRoot() {
    let (root, panel, _) = makeStores()
    let taps = panel.project { "\($0.taps) taps" }
    taps.send(.tap)
    #expect(taps.state == "1 taps")
    let rootView = root.project { $0.log.count }
    rootView.send(.note("from the root's projection"))
    let fieldOfProjection = panel.project { $0 }.scope(state: \.field, event: PanelEvent.field)
    fieldOfProjection.send(.type("p"))
    #expect(root.state.log == ["tap", "from the root's projection", "type p"])
    #expect(rootView.state == 3)
    root.stop()
  }

  @Test("send(contentsOf:) through a scoped store reduces each event in order, one at a time")
  func sendContentsOfThroughAScopedStore() {
    let (root, _, field) = makeStores()
    field.send(contentsOf: [.type("a"), .type("b"), .type("c")])
    #expect(root.state.log == ["type a", "type b", "type c"])
    #expect(field.state.text == "abc")
    root.stop()
  }

  @Test("after the root stops, a scoped send is dropped, and no later send delivers it")
  func sendAfterStopIsDropped() {
    let (root, panel, field) = makeStores()
    field.send(.type("before"))
    root.stop()
    field.send(.type("after"))
    panel.send(.tap)
    #expect(root.state.log == ["type before"])
    #expect(field.isStopped && panel.isStopped)
  }

  @Test("sends from two trees interleave without taking each other's events")
  func twoTreesKeepTheirOwnEvents() {
    let (rootA, panelA, fieldA) = makeStores()
    let (rootB, _, fieldB) = makeStores()
    let crossing = panelA.scope(
      state: \.field,
      event: { (event: FieldEvent) -> PanelEvent in
        fieldB.send(.type("b"))
        return .field(event)
      })
    crossing.send(.type("a"))
    fieldA.send(.type("a2"))
    #expect(rootA.state.log == ["type a", "type a2"])
    #expect(rootB.state.log == ["type b"])
    rootA.stop()
    rootB.stop()
  }

  @Test("a store ten levels deep reduces from its own frame, not under its levels' frames")
  func deepSendReducesFromAShallowFrame() {
    var depthAtReduction: [Int] = []
    let recordDepth: @MainActor () -> Void = { depthAtReduction.append(Thread.callStackSymbols.count) }
    let root = Store(
      initial: DeepScopeTests.initial, reduce: DeepScopeTests.reduceTen,
      monitor: SystemMonitor { activity in
        if case .reduced = activity { MainActor.assumeIsolated { recordDepth() } }
      })
    let middle: Store<DeepScopeTests.Five, DeepScopeTests.FiveEvent> =
      DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(root)))))
    let leaf: Store<Int, Int> =
      DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(DeepScopeTests.down(middle)))))
    sendFromHere { root.send(.own) }
    sendFromHere { leaf.send(1) }
    root.stop()
    #expect(depthAtReduction.count == 2)
    // Sent from the same frame, the leaf's reduction runs at most a few
    // frames deeper than the root's (the delivery), not ten levels' worth
    // of mapping frames deeper.
    if depthAtReduction.count == 2 {
      #expect(depthAtReduction[1] - depthAtReduction[0] < 5, "reduction depths \(depthAtReduction)")
    }
  }

  /// Calls `send` from one frame, so that the two sends above start at the
  /// same depth.
  @inline(never)
  private func sendFromHere(_ send: () -> Void) { send() }
}
