import CycleCounterExample
import CycleDrivers
import FeedbackLoop
import FeedbackLoopCycle
import Observation
import Synchronization
import Testing

/// Whether an observation saw a change.
final class ChangeFlag: Sendable {
  private let flag = Mutex(false)
  var isSet: Bool { flag.withLock { $0 } }
  func set() { flag.withLock { $0 = true } }
}

/// The SwiftUI screen driver's logic, on Linux: `SwiftUIScreen` is
/// `ObservableScreen` under its SwiftUI name, so what a view relies on
/// (the observed model, the events it sends) is tested here.
@MainActor
@Suite("ObservableScreen: the SwiftUI screen driver, tested on Linux")
struct ObservableScreenTests {
  @Test func aRenderChangesTheModelAViewObserves() {
    let screen = ObservableScreen<String, CycleCounter.Key>(initial: "")
    let changed = ChangeFlag()
    withObservationTracking {
      _ = screen.model
    } onChange: {
      changed.set()
    }
    screen.render("count 1")
    #expect(screen.model == "count 1")
    #expect(changed.isSet)
  }

  @Test func aMainActorRouterRendersIntoTheScreenBeforeSendReturns() {
    let screen = ObservableScreen<String, CycleCounter.Key>(initial: "")
    let router = Router(seed: CycleCounter.Frame()) { _ in
      [Wire(CycleCounter.keys, driver: screen, model: CycleCounter.screenModel, events: CycleCounter.screenEvents)]
    }
    let app = router.start(isolation: .mainActor)
    #expect(screen.model == "count 0 · 0s")
    app.send(.driver(CycleCounter.keys, .increment))
    #expect(screen.model == "count 1 · 0s")
    app.stop()
  }

  @Test func whatTheViewSendsAreTheScreensEvents() async {
    let screen = ObservableScreen<String, CycleCounter.Key>(initial: "")
    screen.send(.increment)
    screen.send(.pause)
    screen.close()
    var events: [CycleCounter.Key] = []
    for await event in screen.events { events.append(event) }
    #expect(events == [.increment, .pause])
  }
}
