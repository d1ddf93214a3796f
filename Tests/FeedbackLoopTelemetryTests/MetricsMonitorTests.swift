import FeedbackLoop
import FeedbackLoopTelemetry
import FeedbackLoopTesting
import MetricsTestKit
import Synchronization
import Testing

@Suite("Metrics monitor", .runsLeftoverJobs)
struct MetricsMonitorTests {
  typealias Names = MetricNames

  static func system(_ label: String) -> [(String, String)] { [(Names.system, label)] }
  static func feedback(_ name: String, of label: String = "jobs") -> [(String, String)] {
    [(Names.system, label), (Names.feedback, name)]
  }
  static func discarded(_ reason: String, of label: String = "jobs") -> [(String, String)] {
    [(Names.system, label), (Names.reason, reason)]
  }

  @Test("each reduced event counts once, counted by the loop, under the system's label")
  func eventsReduced() throws {
    let metrics = TestMetrics()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .metrics(label: "jobs", factory: metrics, clock: jobs.clock))
    for _ in 0..<5 { system.send(.ping) }
    jobs.settle()
    #expect(try metrics.expectCounter(Names.eventsReduced, Self.system("jobs")).totalValue == 5)
    system.stop()
  }

  @Test("an effect that finishes: started, finished, in flight back to zero, its duration read on the injected clock")
  func effectFinished() throws {
    let metrics = TestMetrics()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .metrics(label: "jobs", factory: metrics, clock: jobs.clock))
    system.send(.nap(1))
    jobs.settle()
    let sleeper = Self.feedback("sleeper")
    #expect(try metrics.expectCounter(Names.effectsStarted, sleeper).totalValue == 1)
    #expect(try metrics.expectMeter(Names.effectsInFlight, sleeper).lastValue == 1)
    jobs.clock.advance(by: Jobs.napLength)
    #expect(system.state.naps == 1)
    #expect(try metrics.expectCounter(Names.effectsFinished, sleeper).totalValue == 1)
    #expect(try metrics.expectMeter(Names.effectsInFlight, sleeper).lastValue == 0)
    #expect(try metrics.expectTimer(Names.effectDuration, sleeper).values == [3_000_000_000])
    #expect(metrics.counters(label: Names.effectsCancelled).allSatisfy { $0.totalValue == 0 })
    system.stop()
  }

  @Test("a cancelled effect counts as cancelled, leaves the in-flight gauge, and records how long it ran")
  func effectCancelled() throws {
    let metrics = TestMetrics()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .metrics(label: "jobs", factory: metrics, clock: jobs.clock))
    system.send(.nap(1))
    jobs.settle()
    jobs.clock.advance(by: .seconds(1))
    system.send(.cancelNap)
    jobs.settle()
    let sleeper = Self.feedback("sleeper")
    #expect(try metrics.expectCounter(Names.effectsCancelled, sleeper).totalValue == 1)
    #expect(try metrics.expectCounter(Names.effectsFinished, sleeper).totalValue == 0)
    #expect(try metrics.expectMeter(Names.effectsInFlight, sleeper).lastValue == 0)
    #expect(try metrics.expectTimer(Names.effectDuration, sleeper).values == [1_000_000_000])
    system.stop()
  }

  @Test("G4 a replaced effect: one cancelled, two started, one still in flight")
  func effectReplaced() throws {
    let metrics = TestMetrics()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .metrics(label: "jobs", factory: metrics, clock: jobs.clock))
    system.send(.nap(1))
    jobs.settle()
    system.send(.nap(2))
    jobs.settle()
    let sleeper = Self.feedback("sleeper")
    #expect(try metrics.expectCounter(Names.effectsStarted, sleeper).totalValue == 2)
    #expect(try metrics.expectCounter(Names.effectsCancelled, sleeper).totalValue == 1)
    #expect(try metrics.expectMeter(Names.effectsInFlight, sleeper).lastValue == 1)
    system.stop()
  }

  @Test("G12 an effect that throws counts as failed, under its own feedback's name")
  func effectFailed() throws {
    let metrics = TestMetrics()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .metrics(label: "jobs", factory: metrics, clock: jobs.clock))
    system.send(.fail(1))
    jobs.settle()
    let failer = Self.feedback("failer")
    #expect(try metrics.expectCounter(Names.effectsStarted, failer).totalValue == 1)
    #expect(try metrics.expectCounter(Names.effectsFailed, failer).totalValue == 1)
    #expect(try metrics.expectMeter(Names.effectsInFlight, failer).lastValue == 0)
    #expect(try metrics.expectTimer(Names.effectDuration, failer).values == [0])
    #expect(metrics.counters(label: Names.effectsStarted).map(\.dimensions.last?.1) == ["failer"])
    system.stop()
  }

  @Test("an effect queued behind a running one counts as queued, then started when the first ends")
  func effectQueued() throws {
    let metrics = TestMetrics()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .metrics(label: "jobs", factory: metrics, clock: jobs.clock))
    system.send(.queue(1))
    jobs.settle()
    system.send(.queue(2))
    jobs.settle()
    let queuer = Self.feedback("queuer")
    #expect(try metrics.expectCounter(Names.effectsQueued, queuer).totalValue == 1)
    #expect(try metrics.expectCounter(Names.effectsStarted, queuer).totalValue == 1)
    jobs.clock.advance(by: .seconds(1))
    #expect(try metrics.expectCounter(Names.effectsStarted, queuer).totalValue == 2)
    #expect(try metrics.expectCounter(Names.effectsFinished, queuer).totalValue == 1)
    #expect(try metrics.expectMeter(Names.effectsInFlight, queuer).lastValue == 1)
    system.stop()
  }

  @Test("G9 stopping the system: running effects count as cancelled, once, and leave the in-flight gauge")
  func stopCancelsRunningEffects() throws {
    let metrics = TestMetrics()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .metrics(label: "jobs", factory: metrics, clock: jobs.clock))
    system.send(.nap(1))
    system.send(.queue(1))
    system.send(.queue(2))
    jobs.settle()
    jobs.clock.advance(by: .milliseconds(500))
    system.stop()
    jobs.settle()
    let sleeper = Self.feedback("sleeper")
    let queuer = Self.feedback("queuer")
    #expect(try metrics.expectCounter(Names.effectsCancelled, sleeper).totalValue == 1)
    #expect(try metrics.expectMeter(Names.effectsInFlight, sleeper).lastValue == 0)
    #expect(try metrics.expectTimer(Names.effectDuration, sleeper).values == [500_000_000])
    #expect(try metrics.expectMeter(Names.effectsInFlight, queuer).lastValue == 0)
    #expect(try metrics.expectCounter(Names.effectsFinished, sleeper).totalValue == 0)
  }

  @Test("G9 an event sent to a stopped system counts as refused (reason system_stopped)")
  func refusedWhenStopped() throws {
    let metrics = TestMetrics()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .metrics(label: "jobs", factory: metrics, clock: jobs.clock))
    system.stop()
    system.send(.ping)
    system.send(.ping)
    let refused = Self.discarded(Names.DiscardedReason.systemStopped)
    #expect(try metrics.expectCounter(Names.eventsDiscarded, refused).totalValue == 2)
    #expect(try metrics.expectCounter(Names.eventsReduced, Self.system("jobs")).totalValue == 0)
  }

  @Test("G14 an event the full buffer refuses counts as dropped (reason buffer_full)")
  func droppedWhenBufferFull() throws {
    let metrics = TestMetrics()
    let jobs = Jobs(eventBuffer: .dropNewest(limit: 0))
    let target = Mutex<System<Jobs.State, Jobs.Event>?>(nil)
    // While the loop reduces the first ping, two more pings find no room.
    let sender = SystemMonitor<Jobs.State, Jobs.Event> { activity in
      guard case .reduced(.nap, _, _, _) = activity else { return }
      let system = target.withLock { $0 }
      system?.send(.ping)
      system?.send(.ping)
    }
    let system = jobs.makeSystem(
      monitor: .combining([.metrics(label: "jobs", factory: metrics, clock: jobs.clock), sender]))
    target.withLock { $0 = system }
    system.send(.nap(1))
    jobs.settle()
    let dropped = Self.discarded(Names.DiscardedReason.bufferFull)
    let reduced = try metrics.expectCounter(Names.eventsReduced, Self.system("jobs")).totalValue
    let droppedCount = try metrics.expectCounter(Names.eventsDiscarded, dropped).totalValue
    // Both pings sent while the loop reduced found the buffer full.
    #expect(droppedCount == 2)
    #expect(reduced == 1)
    target.withLock { $0 = nil }
    system.stop()
  }

  @Test("G14 four threads send to a bounded system: every event counts once, as reduced or as dropped")
  func sendersOnManyThreads() async throws {
    let metrics = TestMetrics()
    let system = System(
      initial: 0, reduceReturning: { $0 + $1 }, environment: SystemEnvironment(eventBuffer: .dropNewest(limit: 4)),
      monitor: .metrics(label: "adder", factory: metrics))
    await withTaskGroup(of: Void.self) { group in
      for _ in 0..<4 {
        group.addTask { for _ in 0..<500 { system.send(1) } }
      }
    }
    let reduced = try metrics.expectCounter(Names.eventsReduced, Self.system("adder")).totalValue
    let dropped = try metrics.expectCounter(
      Names.eventsDiscarded, Self.discarded(Names.DiscardedReason.bufferFull, of: "adder")
    ).totalValue
    #expect(reduced + dropped == 2_000)
    #expect(Int64(system.state) == reduced)
    system.stop()
  }

  @Test("two systems with different labels count apart; the discard reasons are made once, per system")
  func twoSystemsTwoLabels() throws {
    let metrics = TestMetrics()
    let jobs = Jobs()
    let first = jobs.makeSystem(monitor: .metrics(label: "first", factory: metrics, clock: jobs.clock))
    let second = jobs.makeSystem(monitor: .metrics(label: "second", factory: metrics, clock: jobs.clock))
    first.send(.ping)
    second.send(.ping)
    second.send(.nap(1))
    jobs.settle()
    #expect(try metrics.expectCounter(Names.eventsReduced, Self.system("first")).totalValue == 1)
    #expect(try metrics.expectCounter(Names.eventsReduced, Self.system("second")).totalValue == 2)
    #expect(try metrics.expectCounter(Names.effectsStarted, Self.feedback("sleeper", of: "second")).totalValue == 1)
    #expect(throws: (any Error).self) {
      try metrics.expectCounter(Names.effectsStarted, Self.feedback("sleeper", of: "first"))
    }
    // Five reasons per system, and no counter per event or per effect.
    #expect(metrics.counters(label: Names.eventsDiscarded).count == 10)
    first.stop()
    second.stop()
  }
}
