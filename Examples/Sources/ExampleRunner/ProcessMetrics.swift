import Metrics
import Prometheus

/// The process's Prometheus registry, bootstrapped into swift-metrics on
/// first use.
///
/// swift-metrics takes one bootstrap per process, and a second one traps:
/// a `static let` runs it once however many examples (or test sessions) a
/// process runs. Tests of the server do not come here: they give their
/// systems a factory of a registry of their own.
enum ProcessMetrics {
  static let registry: PrometheusCollectorRegistry = {
    let registry = PrometheusCollectorRegistry()
    MetricsSystem.bootstrap(PrometheusMetricsFactory(registry: registry))
    return registry
  }()
}
