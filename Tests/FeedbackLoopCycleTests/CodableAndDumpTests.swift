import CustomDump
import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopTesting
import Foundation
import Testing

/// A reel and a Cycle event as JSON and as a test's diff shows them: what
/// a test writes, not the storage.
@Suite(.runsLeftoverJobs) struct CodableAndDumpTests {
  struct Frame: Codable, Equatable, Sendable {
    var count: Int
  }

  enum Key: Codable, Equatable, Sendable {
    case plus
    case set(Int)
  }

  struct Keys: Driver {
    var events: AsyncStream<Key> { AsyncStream { $0.finish() } }
    func render(_ model: Int) {}
  }

  static func router() -> Router<Frame> {
    Router(seed: Frame(count: 0), memory: 2) { _ in
      [
        Wire("keys", driver: Keys(), model: \.count) { key, frames in
          switch key {
          case .plus: .frame(Frame(count: frames.current.count + 1))
          case .set(let count): .frame(Frame(count: count))
          }
        }
      ]
    }
  }

  @Test("a reel dumps as its initializer reads, without its storage")
  func reelDump() {
    let reel = Reel(
      queue: [Frame(count: 2), Frame(count: 3)], previous: [Frame(count: 1)], memory: 2,
      endedDrivers: [DriverEnd(driver: "network", failure: "offline")])
    var dumped = ""
    customDump(reel, to: &dumped)
    #expect(
      dumped == """
        Reel(
          queue: [
            [0]: CodableAndDumpTests.Frame(count: 2),
            [1]: CodableAndDumpTests.Frame(count: 3)
          ],
          previous: [
            [0]: CodableAndDumpTests.Frame(count: 1)
          ],
          memory: 2,
          endedDrivers: [
            [0]: DriverEnd(
              driver: "network",
              failure: "offline"
            )
          ]
        )
        """)
  }

  @Test("a failing comparison of two reels shows the frames that differ, not the storage")
  func reelDiff() throws {
    let difference = try #require(
      diff(Reel(queue: [1], previous: [0], memory: 1), Reel(queue: [2], previous: [0], memory: 1)))
    #expect(!difference.contains("_storage") && !difference.contains("_frame"))
    #expect(difference.contains("queue"))
  }

  @Test("a driver's event dumps as its initializer reads, without the router's wire number")
  func driverEventDump() {
    var dumped = ""
    customDump(Self.router().event(Key.set(3), from: "keys"), to: &dumped)
    #expect(
      dumped == """
        CycleEvent.driver(
          DriverEvent(
            driver: "keys",
            event: .set(3)
          )
        )
        """)
  }

  @Test("a reel is written as its initializer reads, and read back")
  func reelRoundTrip() throws {
    let reel = Reel(
      queue: [Frame(count: 2), Frame(count: 3)], previous: [Frame(count: 1)], memory: 2,
      endedDrivers: [DriverEnd(driver: "clock")])
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    let json = String(decoding: try encoder.encode(reel), as: UTF8.self)
    #expect(
      json
        == #"{"endedDrivers":[{"driver":"clock"}],"memory":2,"previous":[{"count":1}],"queue":[{"count":2},{"count":3}]}"#
    )
    #expect(try JSONDecoder().decode(Reel<Frame>.self, from: Data(json.utf8)) == reel)
  }

  @Test("a reel with an empty queue or a negative memory does not decode, and says why")
  func reelRefusesBadInput() {
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Reel<Int>.self, from: Data(#"{"queue":[],"memory":1}"#.utf8))
    }
    #expect(throws: DecodingError.self) {
      try JSONDecoder().decode(Reel<Int>.self, from: Data(#"{"queue":[1],"memory":-1}"#.utf8))
    }
  }

  @Test("every Cycle event is written and read back: a driver's, a tick, an end, a failure, a jump")
  func cycleEventRoundTrip() throws {
    _ = Self.router()  // makes Key and Reel<Frame> known
    let events: [CycleEvent] = [
      .driver("keys", Key.set(3)), .tick, .driverEnded("keys"), .driverFailed("keys", message: "offline"),
      .travel(to: Reel(queue: [Frame(count: 5)], previous: [Frame(count: 4)], memory: 2)),
    ]
    for event in events {
      let data = try JSONEncoder().encode(event)
      #expect(try JSONDecoder().decode(CycleEvent.self, from: data) == event)
    }
  }

  @Test("a driver's event of a type no router made known does not decode, and names the type")
  func unknownDriverEventType() throws {
    struct Unseen: Codable, Sendable {}
    let data = try JSONEncoder().encode(CycleEvent.driver("keys", Unseen()))
    #expect {
      try JSONDecoder().decode(CycleEvent.self, from: data)
    } throws: { error in
      "\(error)".contains("Unseen") && "\(error)".contains("registerDecodable")
    }
    DriverEvent.registerDecodable(Unseen.self)
    #expect(throws: Never.self) { try JSONDecoder().decode(CycleEvent.self, from: data) }
  }

  @Test("a driver's event that is not Encodable is an encoding error that names its driver")
  func unencodableDriverEvent() {
    struct Opaque: Sendable {}
    #expect {
      try JSONEncoder().encode(CycleEvent.driver("screen", Opaque()))
    } throws: { error in
      "\(error)".contains("screen") && "\(error)".contains("Opaque")
    }
  }

  @Test("a jump sets the reel through the router's reducer, like any event")
  func travelSetsTheReel() {
    let router = Self.router()
    var reel = router.initial
    router.reduce(&reel, .driver("keys", Key.plus))
    let destination = Reel(queue: [Frame(count: 9)], previous: [Frame(count: 8)], memory: 2)
    router.reduce(&reel, .travel(to: destination))
    #expect(reel == destination)
    router.reduce(&reel, .driver("keys", Key.plus))
    #expect(reel == Reel(queue: [Frame(count: 10)], previous: [Frame(count: 8), Frame(count: 9)], memory: 2))
    #expect(CycleEvent.travel(toAnyState: destination).isTravel)
    #expect(!CycleEvent.tick.isTravel)
  }

  @Test("the router's diagram shows each driver between frames, in the form the monitor draws")
  func routerDiagram() {
    let router = Router(seed: 0) { _ in
      [
        Wire("keys", driver: Keys(), model: { $0 }) { _, _ in .unchanged },
        Wire("a \"b\"", driver: Keys(), model: { $0 }) { _, _ in .unchanged },
      ]
    }
    #expect(
      router.mermaidDiagram == """
        stateDiagram-v2
          [*] --> frame
          state "keys" as driver_keys
          frame --> driver_keys: model
          driver_keys --> frame: events
          state "a 'b'" as driver_a__b_
          frame --> driver_a__b_: model
          driver_a__b_ --> frame: events
          %% a Cycle application: each frame goes to every driver as its model; a driver's events make the next frame

        """)
  }

  @Test("a Cycle event with no key, two keys or an unknown one does not decode: an error, not a crash")
  func malformedCycleEvents() {
    for json in [
      #"{}"#, #"{"tick":{},"driverEnded":{"driver":"a"}}"#, #"{"jump":{}}"#, #"{"travel":{"type":"Nope","state":1}}"#,
    ] {
      #expect(throws: DecodingError.self, "\(json)") {
        try JSONDecoder().decode(CycleEvent.self, from: Data(json.utf8))
      }
    }
  }

  @Test("routers made and events decoded on many threads at once: every event decodes, none is lost")
  func concurrentRegistrationAndDecoding() throws {
    let data = try JSONEncoder().encode(CycleEvent.driver("keys", Key.set(7)))
    let decoded = Counter()
    DispatchQueue.concurrentPerform(iterations: 64) { _ in
      _ = Self.router()
      if (try? JSONDecoder().decode(CycleEvent.self, from: data)) == .driver("keys", Key.set(7)) { decoded.add() }
    }
    #expect(decoded.value == 64)
  }

  @Test("a jump to a reel of another frame type stops the router with a message naming both types")
  func jumpToAnotherFrameTypeStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let router = Router(seed: 0) { _ in [Wire("keys", driver: Keys(), model: { $0 }) { _, _ in .unchanged }] }
      var reel = router.initial
      router.reduce(&reel, .travel(to: Reel(seed: "not an Int")))
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("Reel<String>") && message.contains("Reel<Int>"), "stderr: \(message)")
  }

  final class Counter: @unchecked Sendable {
    // Sendable: `count` is only touched under `lock`.
    private let lock = NSLock()
    private var count = 0
    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
  }
}
