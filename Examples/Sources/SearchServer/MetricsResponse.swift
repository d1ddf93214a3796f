import Hummingbird
import NIOCore
import Prometheus

/// A Prometheus registry's figures as a Hummingbird response, in the text
/// format that Prometheus scrapes and a person reads with `curl`.
struct MetricsResponse: ResponseGenerator {
  /// The content type of the text format, version 0.0.4.
  static let contentType = "text/plain; version=0.0.4; charset=utf-8"

  let registry: PrometheusCollectorRegistry

  func response(from request: Request, context: some RequestContext) throws -> Response {
    var text: [UInt8] = []
    registry.emit(into: &text)
    return Response(
      status: .ok, headers: [.contentType: Self.contentType],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: text)))
  }
}
