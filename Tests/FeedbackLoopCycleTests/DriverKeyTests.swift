import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopTesting
import Foundation
import Testing

/// Typed outside events: an application declares a key per driver, wires
/// the driver with it and sends the driver's events through it. A wrong
/// event type for a key does not compile (`.driver(Keyboard.pad, 3)` is
/// refused by the type checker: `Int` is not a `Pad`), so these tests hold
/// what the keys do at run time.
@Suite(.runsLeftoverJobs) struct DriverKeyTests {
  enum Pad: Equatable, Sendable, Codable {
    case tap(Int)
  }

  enum Dial: Equatable, Sendable, Codable {
    case turn(by: Int)
  }

  enum Keyboard {
    static let pad = DriverKey<Pad>("pad")
    static let dial = DriverKey<Dial>("dial")

    static func router(pad padDriver: RecordingDriver<Int, Pad>, dial dialDriver: RecordingDriver<Int, Dial>)
      -> Router<Int>
    {
      Router(seed: 0) { _ in
        [
          Wire(
            pad, driver: padDriver, model: { $0 },
            events: { (tap: Pad, frames) in
              guard case .tap(let n) = tap else { return .unchanged }
              return .frame(frames.current + n)
            }),
          Wire(
            dial, driver: dialDriver, model: { $0 % 10 },
            events: { (turn: Dial, frames) in
              guard case .turn(let n) = turn else { return .unchanged }
              return .frame(frames.current * n)
            }),
        ]
      }
    }
  }

  @Test("an event sent through a driver's key reaches that driver's event filter")
  func keyedEventsReachTheirFilters() {
    let pad = RecordingDriver<Int, Pad>()
    let dial = RecordingDriver<Int, Dial>()
    let router = Keyboard.router(pad: pad, dial: dial)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    app.send(.driver(Keyboard.pad, .tap(3))) { $0 = Reel(queue: [3], previous: [0]) }
    app.send(.driver(Keyboard.dial, .turn(by: 4))) { $0 = Reel(queue: [12], previous: [3]) }
    pad.experience(.tap(1))
    app.receive(.driver(Keyboard.pad, .tap(1))) { $0 = Reel(queue: [13], previous: [12]) }
    app.finish()
    #expect(pad.renders == [0, 3, 12, 13])
  }

  @Test("a key's event is the event the driver's own sequence reports, and the router's prepared one")
  func keyedEventsEqualTheDriversOwn() {
    let router = Keyboard.router(pad: RecordingDriver(), dial: RecordingDriver())
    #expect(Keyboard.pad.event(.tap(2)) == .driver(DriverEvent(driver: "pad", event: Pad.tap(2))))
    #expect(router.event(Keyboard.dial, .turn(by: 2)) == .driver(Keyboard.dial, .turn(by: 2)))
    #expect(Keyboard.pad.event(.tap(2)) != .driver(Keyboard.pad, .tap(3)))
    var reel = router.initial
    router.reduce(&reel, router.event(Keyboard.pad, .tap(5)))
    router.reduce(&reel, router.event(Keyboard.dial, .turn(by: 2)))
    #expect(reel == Reel(queue: [10], previous: [5]))
  }

  @Test("a keyed event is written and read back as the untyped one is")
  func keyedEventsRoundTrip() throws {
    _ = Keyboard.router(pad: RecordingDriver(), dial: RecordingDriver())  // makes Pad decodable
    let event = CycleEvent.driver(Keyboard.pad, .tap(7))
    let data = try JSONEncoder().encode(event)
    #expect(try JSONDecoder().decode(CycleEvent.self, from: data) == event)
  }

  @Test("keys are sent from many threads at once, each reduced once")
  func keysFromManyThreads() async {
    let router = Keyboard.router(pad: RecordingDriver(), dial: RecordingDriver())
    let app = router.start(isolation: .sendingThread)
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<8 {
        group.addTask { for _ in 0..<100 { app.send(.driver(Keyboard.pad, .tap(1))) } }
      }
    }
    #expect(app.state.frame == 800)
    app.stop()
  }

  #if !os(Windows)
    @Test("a key whose driver the router does not wire is refused with a message naming it")
    func keyOfAnotherRouter() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let router = Keyboard.router(pad: RecordingDriver(), dial: RecordingDriver())
        _ = router.event(DriverKey<Pad>("mouse"), .tap(1))
      }
      if let result {
        let errors = String(decoding: result.standardErrorContent, as: UTF8.self)
        #expect(errors.contains("no driver is called mouse"), "stderr: \(errors)")
      }
    }
  #endif
}
