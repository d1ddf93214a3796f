import FeedbackLoop
import FeedbackLoopTelemetry
import Metrics
import MetricsTestKit
import Prometheus

/// W1 with the swift-metrics monitor attached (issue 33): the same million
/// events through one Input, counted by `SystemMonitor.metrics(label:)` with
/// no backend bootstrapped (`W1metrics-noop`: swift-metrics' no-op handlers,
/// what an app pays before it chooses a backend), or with MetricsTestKit's
/// in-memory `TestMetrics` (`W1metrics-memory`: every increment kept, with
/// its time, in an array behind a lock), or with swift-prometheus' registry
/// (`W1metrics-prometheus`: a production backend, in memory, an atomic add
/// per increment). Compared with W1 in the same run: the targets are 1.2
/// times W1 with no backend and 3 times with an in-memory one.
public enum MetricsInputThroughput {
  public static let noBackend = Workload(
    id: "W1metrics-noop", summary: "W1 with the metrics monitor, no backend bootstrapped",
    operations: InputThroughput.eventCount, runs: 11,
    makeTrial: { trial(factory: MetricsSystem.factory, id: "W1metrics-noop") })

  public static let inMemory = Workload(
    id: "W1metrics-memory", summary: "W1 with the metrics monitor and MetricsTestKit's in-memory backend",
    operations: InputThroughput.eventCount, runs: 11,
    makeTrial: { trial(factory: TestMetrics(), id: "W1metrics-memory") })

  public static let prometheus = Workload(
    id: "W1metrics-prometheus", summary: "W1 with the metrics monitor and swift-prometheus' registry",
    operations: InputThroughput.eventCount, runs: 11,
    makeTrial: {
      trial(factory: PrometheusMetricsFactory(registry: PrometheusCollectorRegistry()), id: "W1metrics-prometheus")
    })

  static func trial(factory: any MetricsFactory, id: String) -> Trial {
    let events = Counter.events(count: InputThroughput.eventCount)
    let input = Input<CounterEvent>()
    let system = System(
      initial: 0, reduceReturning: Counter.reduce, feedbacks: [.input(input)],
      monitor: .metrics(label: "W1", factory: factory))
    let expected = Counter.finalState(count: events.count)
    return Trial(
      run: {
        for event in events { input.send(event) }
        await system.waitUntil { $0 == expected }
      },
      finish: {
        check(system.state == expected, "\(id) ended at \(system.state)")
        if let memory = factory as? TestMetrics {
          let reduced = memory.counterTotal(label: MetricNames.eventsReduced)
          check(reduced == Int64(events.count), "\(id) counted \(reduced) reductions")
        }
        system.stop()
      })
  }
}
