import HTTPTypes
import Hummingbird
import NIOCore

extension TallyAnswer: ResponseEncodable {}
extension Acknowledgement: ResponseEncodable {}
extension NodeHealth: ResponseEncodable {}

/// The cluster service's HTTP API over a ``TallyDirectory``:
///
/// | request | answer |
/// | --- | --- |
/// | `POST /systems/{id}/events` with `{"number": n}` | 202 and an ``Acknowledgement`` once the event is acknowledged, whichever node owns the id |
/// | `GET /systems/{id}` | 200 and a ``TallyAnswer``, read by the owner: a node that does not own the id forwards the request to the one that does |
/// | `GET /health` | 200 and the node's ``NodeHealth`` |
///
/// A read finds no owner while a dead node's lease runs out (503, with
/// `Retry-After`); a forwarded read that reaches a node that no longer owns
/// the id is not forwarded again (503 too): the client asks again.
///
/// ```swift
/// let router = TallyRoutes(directory: tallies, forwarding: HTTPTallyForwarding()).router()
/// let app = Application(router: router, configuration: .init(address: .hostname("127.0.0.1", port: 8081)))
/// ```
public struct TallyRoutes: Sendable {
  /// The header of a forwarded read, naming the node that forwarded it.
  public static let forwardedByHeader = "x-forwarded-by"

  public let directory: any TallyDirectory
  public let forwarding: any TallyForwarding

  public init(directory: any TallyDirectory, forwarding: any TallyForwarding) {
    self.directory = directory
    self.forwarding = forwarding
  }

  /// The router, for a Hummingbird `Application`.
  public func router() -> Router<BasicRequestContext> {
    let router = Router(context: BasicRequestContext.self)
    router.post("systems/:id/events") { request, context -> EditedResponse<Acknowledgement> in
      let id = try Self.systemID(context)
      let count = try await request.decode(as: CountRequest.self, context: context)
      guard count.number >= 1 else { throw HTTPError(.badRequest, message: "number counts from 1") }
      do {
        try await directory.send(.count(count.number), to: id)
      } catch {
        // Not acknowledged: the client may send it again, with the same number.
        throw HTTPError(.serviceUnavailable, message: "not acknowledged: \(error)")
      }
      return EditedResponse(status: .accepted, response: Acknowledgement(id: id, node: directory.nodeID))
    }
    router.get("systems/:id") { request, context -> Response in
      let id = try Self.systemID(context)
      let lookUp: TallyLookup
      do {
        lookUp = try await directory.lookUp(id)
      } catch {
        throw HTTPError(.serviceUnavailable, message: "could not read \(id): \(error)")
      }
      switch lookUp {
      case .here(let tally):
        return try TallyAnswer(id: id, node: directory.nodeID, tally: tally).response(from: request, context: context)
      case .elsewhere(let baseURL):
        guard let forwarder = request.headers[HTTPField.Name(Self.forwardedByHeader)!] else {
          return try await forward(id, to: baseURL)
        }
        throw Self.retryLater("\(id) moved while \(forwarder) forwarded its read")
      case .unowned:
        throw Self.retryLater("no live node owns \(id) now: its shard is changing hands")
      }
    }
    router.get("health") { _, _ in await directory.health() }
    return router
  }

  private func forward(_ id: String, to baseURL: String) async throws -> Response {
    let answer: ForwardedAnswer
    do {
      answer = try await forwarding.tally(id, from: baseURL, forwardedBy: directory.nodeID)
    } catch {
      throw Self.retryLater("the owner of \(id) at \(baseURL) did not answer: \(error)")
    }
    return Response(
      status: HTTPResponse.Status(code: answer.status),
      headers: [.contentType: "application/json; charset=utf-8"],
      body: ResponseBody(byteBuffer: ByteBuffer(bytes: answer.body)))
  }

  private static func systemID(_ context: BasicRequestContext) throws -> String {
    let id = try context.parameters.require("id")
    // PostgreSQL's text cannot hold a NUL.
    guard !id.isEmpty, !id.utf8.contains(0) else {
      throw HTTPError(.badRequest, message: "a system id is text without NUL")
    }
    return id
  }

  private static func retryLater(_ message: String) -> HTTPError {
    HTTPError(.serviceUnavailable, headers: [.retryAfter: "1"], message: message)
  }
}
