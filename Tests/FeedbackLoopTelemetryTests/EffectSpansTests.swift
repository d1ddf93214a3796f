import FeedbackLoop
import FeedbackLoopTelemetry
import FeedbackLoopTesting
import InMemoryTracing
import Testing
import Tracing

@Suite("Effect spans", .runsLeftoverJobs)
struct EffectSpansTests {
  static let cancelled = "feedbackloop.effect.cancelled"

  @Test("an effect's span starts when it starts, is named after its feedback, and ends when it finishes, without error")
  func finishedEffect() {
    let tracer = InMemoryTracer()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .effectSpans(label: "jobs", tracer: tracer))
    system.send(.nap(7))
    jobs.settle()
    #expect(tracer.activeSpans.map(\.operationName) == ["sleeper"])
    #expect(tracer.finishedSpans.isEmpty)
    jobs.clock.advance(by: Jobs.napLength)
    let spans = tracer.finishedSpans
    #expect(spans.map(\.operationName) == ["sleeper"])
    #expect(tracer.activeSpans.isEmpty)
    let span = spans.first
    #expect(span?.status == nil)
    #expect(span?.errors.isEmpty == true)
    #expect(span?.attributes["feedbackloop.system"]?.toSpanAttribute() == .string("jobs"))
    #expect(span?.attributes["feedbackloop.effect.number"]?.toSpanAttribute() == .int64(1))
    #expect(span?.attributes["feedbackloop.effect.trigger"] != nil)
    #expect(span?.attributes[Self.cancelled] == nil)
    #expect(span?.parentSpanID == nil)
    system.stop()
  }

  @Test("G12 a failed effect's span ends with the error recorded and the status error")
  func failedEffect() {
    let tracer = InMemoryTracer()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .effectSpans(label: "jobs", tracer: tracer))
    system.send(.fail(1))
    jobs.settle()
    let span = tracer.finishedSpans.first
    #expect(tracer.finishedSpans.map(\.operationName) == ["failer"])
    #expect(span?.status?.code == .error)
    #expect(span?.errors.map { "\($0.error)" } == ["boom"])
    system.stop()
  }

  @Test("a cancelled effect's span ends with the attribute that says so")
  func cancelledEffect() {
    let tracer = InMemoryTracer()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .effectSpans(label: "jobs", tracer: tracer))
    system.send(.nap(1))
    jobs.settle()
    system.send(.cancelNap)
    jobs.settle()
    let span = tracer.finishedSpans.first
    #expect(tracer.finishedSpans.count == 1)
    #expect(span?.attributes[Self.cancelled]?.toSpanAttribute() == .bool(true))
    #expect(span?.status == nil)
    #expect(tracer.activeSpans.isEmpty)
    system.stop()
  }

  @Test("G9 stopping the system ends every open span, as cancelled by the stop, and only once")
  func stopEndsOpenSpans() {
    let tracer = InMemoryTracer()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .effectSpans(label: "jobs", tracer: tracer))
    system.send(.nap(1))
    system.send(.queue(1))
    jobs.settle()
    #expect(tracer.activeSpans.count == 2)
    system.stop()
    jobs.settle()
    let spans = tracer.finishedSpans
    #expect(Set(spans.map(\.operationName)) == ["sleeper", "queuer"])
    #expect(spans.count == 2)
    #expect(spans.allSatisfy { $0.attributes[Self.cancelled]?.toSpanAttribute() == .bool(true) })
    #expect(tracer.activeSpans.isEmpty)
  }

  @Test("a queued effect gets its span when it starts, not when it is queued")
  func queuedEffect() {
    let tracer = InMemoryTracer()
    let jobs = Jobs()
    let system = jobs.makeSystem(monitor: .effectSpans(label: "jobs", tracer: tracer))
    system.send(.queue(1))
    system.send(.queue(2))
    jobs.settle()
    #expect(tracer.activeSpans.count == 1)
    jobs.clock.advance(by: .seconds(1))
    #expect(tracer.finishedSpans.count == 1)
    #expect(tracer.activeSpans.count == 1)
    jobs.clock.advance(by: .seconds(1))
    #expect(tracer.finishedSpans.count == 2)
    #expect(tracer.activeSpans.isEmpty)
    system.stop()
  }
}
