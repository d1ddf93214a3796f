import FeedbackLoop
import FeedbackLoopTelemetry
import Tracing

/// W1 with the tracing monitor attached and no tracer bootstrapped (the
/// no-op tracer, what an app pays before it chooses one): the same million
/// events through one Input, sent with no service context current
/// (`W1spans-noop`), or each inside one (`W1spans-traced`: the loop keeps
/// the sender's context with each event, boxed, for the effects its state
/// would start). Compared with W1 in the same run.
public enum TracedInputThroughput {
  public static let noContext = Workload(
    id: "W1spans-noop", summary: "W1 with the tracing monitor, no tracer, no context at the sends",
    operations: InputThroughput.eventCount, runs: 11,
    makeTrial: { trial(id: "W1spans-noop", context: nil) })

  public static let withContext = Workload(
    id: "W1spans-traced", summary: "W1 with the tracing monitor, no tracer, each send inside a service context",
    operations: InputThroughput.eventCount, runs: 11,
    makeTrial: { trial(id: "W1spans-traced", context: .topLevel) })

  static func trial(id: String, context: ServiceContext?) -> Trial {
    let events = Counter.events(count: InputThroughput.eventCount)
    let input = Input<CounterEvent>()
    let system = System(
      initial: 0, reduceReturning: Counter.reduce, feedbacks: [.input(input)], monitor: .effectSpans(label: "W1"))
    let expected = Counter.finalState(count: events.count)
    return Trial(
      run: {
        if let context {
          ServiceContext.withValue(context) { for event in events { input.send(event) } }
        } else {
          for event in events { input.send(event) }
        }
        await system.waitUntil { $0 == expected }
      },
      finish: {
        check(system.state == expected, "\(id) ended at \(system.state)")
        system.stop()
      })
  }
}
