import FeedbackLoop
import FeedbackLoopTelemetry
import FeedbackLoopTesting
import InMemoryTracing
import MetricsTestKit
import Testing
import Tracing

/// The sender's trace continues through the loop: the span of an effect
/// that an event's state starts is a child of the span current where the
/// event was sent, and what the effect's code traces is a child of the
/// effect's span, across two systems.
@Suite("Trace context", .runsLeftoverJobs)
struct TraceContextTests {
  /// "fetch" runs for each query: its code traces an "outbound" span and
  /// sends the query on to `next`, if there is one.
  struct Relay {
    struct State: Equatable, Sendable {
      var query: String?
      var answers = 0
    }

    enum Event: Equatable, Sendable {
      case search(String)
      case answered
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .search(let query): state.query = query
      case .answered:
        state.query = nil
        state.answers += 1
      }
    }

    static func feedbacks(
      tracer: InMemoryTracer, name: String, next: System<State, Event>?
    ) -> [Feedback<State, Event>] {
      [
        Feedback.query(\.query, name: name) { query in
          .task {
            tracer.withSpan("outbound \(name)") { _ in next?.send(.search(query)) }
            return .answered
          }
        }
      ]
    }
  }

  let executor = ManualTaskExecutor()
  let clock: TestClock
  let environment: SystemEnvironment

  init() {
    clock = TestClock(executor: executor)
    environment = SystemEnvironment(clock: clock, effectExecutor: executor)
  }

  func makeSystem(
    _ name: String, tracer: InMemoryTracer, next: System<Relay.State, Relay.Event>? = nil,
    monitor: SystemMonitor<Relay.State, Relay.Event>? = nil
  ) -> System<Relay.State, Relay.Event> {
    System(
      initial: Relay.State(), reduce: Relay.reduce,
      feedbacks: Relay.feedbacks(tracer: tracer, name: name, next: next), environment: environment,
      monitor: monitor ?? .effectSpans(label: name, tracer: tracer))
  }

  func span(_ name: String, in tracer: InMemoryTracer) -> FinishedInMemorySpan? {
    tracer.finishedSpans.first { $0.operationName == name }
  }

  @Test("an effect's span is a child of the sender's span, and the effect's own span a child of the effect's")
  func effectContinuesTheSendersTrace() throws {
    let tracer = InMemoryTracer()
    let system = makeSystem("front", tracer: tracer)
    tracer.withSpan("request") { _ in system.send(.search("tea")) }
    executor.runUntilIdle()
    let request = try #require(span("request", in: tracer))
    let effect = try #require(span("front", in: tracer))
    let outbound = try #require(span("outbound front", in: tracer))
    #expect(effect.traceID == request.traceID)
    #expect(effect.parentSpanID == request.spanID)
    #expect(outbound.traceID == request.traceID)
    #expect(outbound.parentSpanID == effect.spanID)
    #expect(system.state.answers == 1)
    system.stop()
  }

  @Test("the trace goes on through an effect that sends to a second system")
  func traceCrossesTwoSystems() throws {
    let tracer = InMemoryTracer()
    let back = makeSystem("back", tracer: tracer)
    let front = makeSystem("front", tracer: tracer, next: back)
    tracer.withSpan("request") { _ in front.send(.search("tea")) }
    executor.runUntilIdle()
    let request = try #require(span("request", in: tracer))
    let frontOutbound = try #require(span("outbound front", in: tracer))
    let backEffect = try #require(span("back", in: tracer))
    #expect(backEffect.traceID == request.traceID)
    #expect(backEffect.parentSpanID == frontOutbound.spanID)
    #expect(back.state.answers == 1)
    front.stop()
    back.stop()
  }

  @Test("an event sent where no span is current starts an effect span of its own trace")
  func noContextNoParent() throws {
    let tracer = InMemoryTracer()
    let system = makeSystem("front", tracer: tracer)
    system.send(.search("tea"))
    executor.runUntilIdle()
    let effect = try #require(span("front", in: tracer))
    #expect(effect.parentSpanID == nil)
    system.stop()
  }

  @Test("combined with the metrics monitor, the effect's span still continues the sender's trace")
  func combinedMonitorKeepsTheContext() throws {
    let tracer = InMemoryTracer()
    let metrics = TestMetrics()
    let monitor = SystemMonitor<Relay.State, Relay.Event>.combining([
      .metrics(label: "front", factory: metrics, clock: clock), .effectSpans(label: "front", tracer: tracer),
    ])
    let system = makeSystem("front", tracer: tracer, monitor: monitor)
    tracer.withSpan("request") { _ in system.send(.search("tea")) }
    executor.runUntilIdle()
    let request = try #require(span("request", in: tracer))
    let effect = try #require(span("front", in: tracer))
    #expect(effect.parentSpanID == request.spanID)
    #expect(try metrics.expectCounter(MetricNames.eventsReduced, [(MetricNames.system, "front")]).totalValue == 2)
    system.stop()
  }

  @Test("a queued event keeps its sender's context until the loop reduces it")
  func queuedEventKeepsItsContext() throws {
    let tracer = InMemoryTracer()
    // A bounded buffer sends even the loop's own events through the shared
    // queue: the event sent from the effect waits there, with its context.
    let bounded = SystemEnvironment(clock: clock, effectExecutor: executor, eventBuffer: .dropNewest(limit: 10))
    let back = System(
      initial: Relay.State(), reduce: Relay.reduce,
      feedbacks: Relay.feedbacks(tracer: tracer, name: "back", next: nil), environment: bounded,
      monitor: .effectSpans(label: "back", tracer: tracer))
    let system = System(
      initial: Relay.State(), reduce: Relay.reduce,
      feedbacks: Relay.feedbacks(tracer: tracer, name: "front", next: back), environment: bounded,
      monitor: .effectSpans(label: "front", tracer: tracer))
    tracer.withSpan("request") { _ in system.send(.search("tea")) }
    executor.runUntilIdle()
    let request = try #require(span("request", in: tracer))
    let backEffect = try #require(span("back", in: tracer))
    #expect(backEffect.traceID == request.traceID)
    system.stop()
    back.stop()
  }
}

@Suite("Events waiting", .runsLeftoverJobs)
struct EventsWaitingTests {
  enum Event: Equatable, Sendable {
    case burst
    case tick
  }

  @Test("G14 the gauge counts the events waiting in the shared queue as the loop takes them, then 0")
  func gaugeFollowsTheQueue() throws {
    let executor = ManualTaskExecutor()
    let clock = TestClock(executor: executor)
    let metrics = TestMetrics()
    // A bounded buffer: the loop's own sends wait in the shared queue too.
    let environment = SystemEnvironment(clock: clock, effectExecutor: executor, eventBuffer: .dropNewest(limit: 10))
    let system = System<Int, Event>(
      initial: 0,
      reduce: { state, event in if event == .tick { state += 1 } },
      feedbacks: [
        Feedback.onEvent(name: "burst") { event, _ in
          event == .burst ? .send(contentsOf: [.tick, .tick, .tick]) : .none
        }
      ],
      environment: environment, monitor: .metrics(label: "bursts", factory: metrics, clock: clock))
    system.send(.burst)
    executor.runUntilIdle()
    #expect(system.state == 3)
    let waiting = try metrics.expectMeter(MetricNames.eventsWaiting, [(MetricNames.system, "bursts")])
    #expect(waiting.values == [3, 2, 1, 0])
    system.stop()
  }
}
