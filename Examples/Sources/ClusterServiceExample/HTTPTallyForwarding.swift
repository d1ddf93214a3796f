import AsyncHTTPClient
import Foundation
import NIOCore

/// Forwards `GET /systems/{id}` to the owner with AsyncHTTPClient.
///
/// ```swift
/// let forwarding = HTTPTallyForwarding()
/// let answer = try await forwarding.tally("cart-7", from: "http://127.0.0.1:8082", forwardedBy: "node-a")
/// ```
public struct HTTPTallyForwarding: TallyForwarding {
  private let client: HTTPClient
  private let timeout: TimeAmount

  /// - Parameters:
  ///   - client: the HTTP client; the shared one by default.
  ///   - timeout: how long the owner has to answer.
  public init(client: HTTPClient = .shared, timeout: TimeAmount = .seconds(5)) {
    self.client = client
    self.timeout = timeout
  }

  public func tally(_ id: String, from baseURL: String, forwardedBy nodeID: String) async throws -> ForwardedAnswer {
    let path = id.addingPercentEncoding(withAllowedCharacters: .urlPathAllowed.subtracting(["/"])) ?? id
    var request = HTTPClientRequest(url: "\(baseURL)/systems/\(path)")
    request.headers.add(name: TallyRoutes.forwardedByHeader, value: nodeID)
    let response = try await client.execute(request, timeout: timeout)
    let body = try await response.body.collect(upTo: 1 << 20)
    return ForwardedAnswer(status: Int(response.status.code), body: Array(buffer: body))
  }
}
