import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Logging
import Testing

/// G11, G12, G13 and G14.
@Suite(.runsLeftoverJobs) struct TimeFailureDeterminismBackpressureTests {
  enum Event: Sendable, Equatable {
    case add(Int)
    case failed(String)
  }

  static func sum(_ state: Int, _ event: Event) -> Int {
    guard case .add(let amount) = event else { return state }
    return state + amount
  }

  struct Boom: Error, CustomStringConvertible {
    var description: String { "boom" }
  }

  @Test("G11 timers go through the injected clock: nothing fires until the test clock moves")
  func test_G11_injectedClock() {
    let harness = Harness()
    let system = System(
      initial: 0, reduceReturning: Self.sum,
      feedbacks: [
        Feedback.query({ $0 < 3 ? $0 : nil }) { _ in .after(.seconds(3), send: .add(1)) }
      ],
      environment: harness.environment)
    harness.settle()
    #expect(harness.clock.nextDeadline == TestClock.Instant(offset: .seconds(3)))
    harness.clock.advance(by: .milliseconds(2_999))
    #expect(system.state == 0)
    harness.clock.advance(by: .milliseconds(1))
    #expect(system.state == 1)
    harness.clock.run()
    #expect(system.state == 3)
    #expect(harness.clock.now == TestClock.Instant(offset: .seconds(9)))
  }

  @Test("G12 a thrown error is mapped to an event; an unmapped one is logged and reported, and the loop goes on")
  func test_G12_failures() {
    let harness = Harness()
    let activity = ActivityLog<Int, Event>()
    let logged = Log<String>()
    var environment = harness.environment
    environment.logger = Logger(label: "test") { _ in CapturingLogHandler(log: logged) }
    let system = System(
      initial: 0, reduceReturning: Self.sum,
      feedbacks: [
        Feedback.query({ $0 == 1 ? $0 : nil }, name: "mapped") { _ in
          .task {
            throw Boom()
          } catch: {
            .failed("\($0)")
          }
        },
        Feedback.query({ $0 == 2 ? $0 : nil }, name: "unmapped") { _ in
          .run { _ in throw Boom() }
        },
      ],
      environment: environment, monitor: activity.monitor)
    system.send(.add(1))
    harness.settle()
    #expect(activity.reducedEvents == [.add(1), .failed("boom")])
    system.send(.add(1))
    harness.settle()
    #expect(activity.failures.map(\.0.feedback.name) == ["unmapped"])
    #expect(logged.entries.contains { $0.contains("boom") && $0.contains("unmapped") })
    system.send(.add(1))  // the loop still works
    #expect(system.state == 3)
  }

  @Test("G13 the same initial state and events give the same states; a recorded event log replays to them")
  func test_G13_replay() {
    func run() -> (events: [Event], states: [Int]) {
      let harness = Harness()
      let activity = ActivityLog<Int, Event>()
      let system = System(
        initial: 0, reduceReturning: Self.sum,
        feedbacks: [
          Feedback.query({ $0 % 2 == 1 ? $0 : nil }) { value in .after(.seconds(1), send: .add(value)) }
        ],
        environment: harness.environment, monitor: activity.monitor)
      for amount in [1, 2, 5, 3] {
        system.send(.add(amount))
        harness.clock.advance(by: .milliseconds(600))
      }
      harness.clock.run()
      return (activity.reducedEvents, activity.states)
    }
    let first = run()
    let second = run()
    #expect(first.events == second.events)
    #expect(first.states == second.states)

    let replay = System(initial: 0, reduceReturning: Self.sum)  // no feedbacks: the log alone
    let replayed = Log<Int>()
    let observation = replay.observe { replayed.append($0) }
    replay.send(contentsOf: first.events)
    #expect(Array(replayed.entries.dropFirst()) == first.states)
    observation.cancel()
  }

  @Test("G14 a bounded event buffer drops the newest events while the loop is busy, and reports each")
  func test_G14_boundedEventBuffer() {
    let activity = ActivityLog<Int, Event>()
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let system = System(
      initial: 0, reduceReturning: Self.sum,
      environment: SystemEnvironment(eventBuffer: .dropNewest(limit: 10)),
      monitor: activity.monitor)
    let observation = system.observe { state in
      if state == 1 {  // hold the loop busy while another thread sends
        entered.signal()
        release.wait()
      }
    }
    let done = DispatchSemaphore(value: 0)
    Thread {
      system.send(.add(1))
      done.signal()
    }.start()
    entered.wait()
    for _ in 0..<100 { system.send(.add(1000)) }
    release.signal()
    done.wait()
    #expect(system.state == 1 + 10 * 1000)
    #expect(activity.discarded.count == 90)
    #expect(activity.discarded.allSatisfy { $0.1 == .bufferFull })
    observation.cancel()
  }

  @Test("G14 dropOldest keeps the newest events; .newest(1) states keep only the latest for a slow reader")
  func test_G14_dropOldestAndNewestStates() async {
    let entered = DispatchSemaphore(value: 0)
    let release = DispatchSemaphore(value: 0)
    let system = System(
      initial: 0, reduceReturning: Self.sum, environment: SystemEnvironment(eventBuffer: .dropOldest(limit: 2)))
    let observation = system.observe { state in
      if state == 1 {
        entered.signal()
        release.wait()
      }
    }
    let done = DispatchSemaphore(value: 0)
    Thread {
      system.send(.add(1))
      done.signal()
    }.start()
    entered.wait()
    for amount in [10, 100, 1000] { system.send(.add(amount)) }
    release.signal()
    done.wait()
    #expect(system.state == 1 + 100 + 1000)
    observation.cancel()

    let latest = system.states(buffering: .newest(1))
    for _ in 0..<50 { system.send(.add(1)) }
    system.stop()
    var seen: [Int] = []
    for await state in latest { seen.append(state) }
    #expect(seen.count <= 2)
    #expect(seen.last == 1101 + 50)
  }
}

/// A swift-log handler that keeps each message with its metadata.
struct CapturingLogHandler: LogHandler {
  let log: Log<String>
  var metadata: Logger.Metadata = [:]
  var logLevel: Logger.Level = .trace

  subscript(metadataKey key: String) -> Logger.Metadata.Value? {
    get { metadata[key] }
    set { metadata[key] = newValue }
  }

  func log(event: LogEvent) {
    let merged = metadata.merging(event.metadata ?? [:]) { $1 }
    log.append("\(event.level) \(event.message) \(merged.sorted { $0.key < $1.key })")
  }
}
