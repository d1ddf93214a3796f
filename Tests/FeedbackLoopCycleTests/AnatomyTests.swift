import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopTesting
import Foundation
import Testing

/// Cycle.swift's anatomy, one part per test: frame, frame filter, driver,
/// event, event filter, router.
@Suite(.runsLeftoverJobs) struct AnatomyTests {
  /// A frame: the whole application at one moment.
  struct Frame: Equatable, Sendable {
    var count = 0
    var seconds = 0
    var lastGesture = ""
  }

  enum Pad: Equatable, Sendable {
    case tap(x: Int)
  }

  enum Ticker: Equatable, Sendable {
    case second
  }

  struct Application {
    static let pad = DriverKey<Pad>("screen")
    static let clockKey = DriverKey<Ticker>("clock")
    let screen = RecordingDriver<String, Pad>()
    let clock = RecordingDriver<Bool, Ticker>()
    let router: Router<Frame>

    init(memory: Int = 2) {
      let (screen, clock) = (screen, clock)
      router = Router(seed: Frame(), memory: memory) { seed in
        [
          Wire(Application.pad, driver: screen, model: { "count \($0.count)" }, events: Application.screenEvents),
          Wire(
            Application.clockKey, driver: clock, model: { $0.count > 0 },
            events: { _, frames in
              var next = frames.current
              next.seconds += 1
              return .frame(next)
            }),
        ]
      }
    }

    /// A tap increments; two taps at the same place in a row are a
    /// double-tap, recognised over the previous frames (n = 2).
    static func screenEvents(_ event: Pad, _ frames: Frames<Frame>) -> FrameUpdate<Frame> {
      guard case .tap(let x) = event else { return .unchanged }
      var next = frames.current
      next.count += 1
      let previousTap = frames.current.lastGesture
      next.lastGesture = previousTap == "tap \(x)" ? "double-tap \(x)" : "tap \(x)"
      return .frame(next)
    }
  }

  @Test("G1 the drivers render the seed frame's models before any event")
  func seedIsRendered() {
    let application = Application()
    let app = TestSystem(
      initial: application.router.initial, reduce: application.router.reduce,
      feedbacks: application.router.feedbacks)
    #expect(application.screen.renders == ["count 0"])
    #expect(application.clock.renders == [false])
    app.finish()
  }

  @Test("frame filter: a driver renders only when its model changes")
  func unchangedModelsAreSkipped() {
    let application = Application()
    let app = TestSystem(
      initial: application.router.initial, reduce: application.router.reduce,
      feedbacks: application.router.feedbacks)
    application.clock.experience(.second)
    app.receive(.driver(Application.clockKey, .second)) {
      $0 = Reel(queue: [Frame(seconds: 1)], previous: [Frame()], memory: 2)
    }
    application.clock.experience(.second)
    app.receive(.driver(Application.clockKey, .second)) {
      $0 = Reel(queue: [Frame(seconds: 2)], previous: [Frame(), Frame(seconds: 1)], memory: 2)
    }
    // Two new frames, but the screen's model ("count 0") and the clock's
    // (false) did not change: neither rendered again.
    #expect(application.screen.renders == ["count 0"])
    #expect(application.clock.renders == [false])
    app.finish()
  }

  @Test("G3 two drivers meet in one frame: each event reaches its own filter, both drivers see the frame")
  func twoDriversOneFrame() {
    let application = Application()
    let app = TestSystem(
      initial: application.router.initial, reduce: application.router.reduce,
      feedbacks: application.router.feedbacks, exhaustivity: .off)
    application.screen.experience(.tap(x: 3))
    application.clock.experience(.second)
    app.receive(.driver(Application.pad, .tap(x: 3)))
    app.receive(.driver(Application.clockKey, .second))
    #expect(app.state.frame == Frame(count: 1, seconds: 1, lastGesture: "tap 3"))
    #expect(application.screen.renders == ["count 0", "count 1"])
    #expect(application.clock.renders == [false, true])
    app.finish()
  }

  @Test("event filter over the previous frames: a double-tap is recognised from the last two taps")
  func gestureOverPreviousFrames() {
    let application = Application()
    let app = TestSystem(
      initial: application.router.initial, reduce: application.router.reduce,
      feedbacks: application.router.feedbacks, exhaustivity: .off)
    app.send(.driver(Application.pad, .tap(x: 1)))
    app.send(.driver(Application.pad, .tap(x: 2)))
    #expect(app.state.frame.lastGesture == "tap 2")
    app.send(.driver(Application.pad, .tap(x: 2)))
    #expect(app.state.frame.lastGesture == "double-tap 2")
    #expect(app.state.previous.map(\.lastGesture) == ["tap 1", "tap 2"])
    app.finish()
  }

  @Test("the reel keeps exactly `memory` previous frames, the oldest first")
  func memoryIsBounded() {
    let application = Application(memory: 2)
    let app = TestSystem(
      initial: application.router.initial, reduce: application.router.reduce,
      feedbacks: application.router.feedbacks, exhaustivity: .off)
    for x in 1...5 { app.send(.driver(Application.pad, .tap(x: x))) }
    #expect(app.state.previous.map(\.count) == [3, 4])
    app.finish()
  }

  @Test("G12 a driver whose events end is reported; the other driver keeps running")
  func driverEnds() {
    let application = Application()
    let app = TestSystem(
      initial: application.router.initial, reduce: application.router.reduce,
      feedbacks: application.router.feedbacks, exhaustivity: .off)
    application.clock.end()
    app.receive(.driverEnded("clock")) {
      $0 = Reel(queue: [Frame()], memory: 2, endedDrivers: [DriverEnd(driver: "clock")])
    }
    application.screen.experience(.tap(x: 1))
    app.receive(.driver(Application.pad, .tap(x: 1)))
    #expect(app.state.frame.count == 1)
    app.finish()
  }

  @Test("G12 a driver whose events throw is reported through the monitor hook; the other keeps running")
  func driverFailsThroughMonitor() {
    let application = Application()
    let seen = Seen()
    let mine = SystemMonitor<Reel<Frame>, CycleEvent> { activity in
      if case .reduced(let event, _, _, _) = activity { seen.add("\(event)") }
    }
    let app = TestSystem(exhaustivity: .off) { environment, monitor in
      application.router.start(environment: environment, monitor: .combining([monitor, mine]))
    }
    application.clock.fail(Offline())
    app.receive(.driverFailed("clock", message: "offline")) {
      $0 = Reel(queue: [Frame()], memory: 2, endedDrivers: [DriverEnd(driver: "clock", failure: "offline")])
    }
    application.screen.experience(.tap(x: 7))
    app.receive(.driver(Application.pad, .tap(x: 7)))
    #expect(seen.values == ["clock failed: offline", "screen: tap(x: 7)"])
    #expect(app.state.frame.count == 1)
    app.finish()
  }

  @Test("G9 stopping the router ends no driver: nothing is reported after stop")
  func stopEndsNothing() {
    let application = Application()
    let app = TestSystem(
      initial: application.router.initial, reduce: application.router.reduce,
      feedbacks: application.router.feedbacks)
    app.finish()
    #expect(application.screen.renders == ["count 0"])
  }

  @Test("a driver's event sent by hand goes to that driver's filter")
  func sentByName() {
    let application = Application()
    let app = TestSystem(
      initial: application.router.initial, reduce: application.router.reduce,
      feedbacks: application.router.feedbacks)
    app.send(.driver(Application.pad, .tap(x: 4))) {
      $0 = Reel(queue: [Frame(count: 1, lastGesture: "tap 4")], previous: [Frame()], memory: 2)
    }
    app.finish()
  }

  @Test("Cycle.swift's eventsCapturedAfterRendering renders the models, then hands back the events")
  func eventsCapturedAfterRendering() async throws {
    let screen = RecordingDriver<String, Pad>()
    let events = screen.eventsCapturedAfterRendering(["a", "b"])
    #expect(screen.renders == ["a", "b"])
    screen.experience(.tap(x: 1))
    screen.end()
    var received: [Pad] = []
    for try await event in events { received.append(event) }
    #expect(received == [.tap(x: 1)])
  }
}

/// What a monitor saw.
final class Seen: @unchecked Sendable {
  // @unchecked: `storage` is read and written only while `lock` is held.
  private let lock = NSLock()
  private var storage: [String] = []

  func add(_ value: String) {
    lock.withLock { storage.append(value) }
  }

  var values: [String] { lock.withLock { storage } }
}
