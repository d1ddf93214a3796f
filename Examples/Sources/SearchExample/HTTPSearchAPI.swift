import AsyncHTTPClient
import Foundation

/// The search API over HTTP, with AsyncHTTPClient: `GET /search?q=…&page=…`
/// answered by a ``Page`` in JSON.
///
/// Cancelling the calling task cancels the request in flight: this is how a
/// new search cancels the page that was loading, all the way to the socket.
///
/// ```swift
/// let api = HTTPSearchAPI(baseURL: "http://127.0.0.1:8080")
/// let page = try await api.page(PageRequest(query: "star", page: 1))
/// ```
public struct HTTPSearchAPI: SearchAPI {
  /// Where the server listens, such as `http://127.0.0.1:8080`.
  public let baseURL: String
  /// How long a request may take before it fails.
  public let timeout: Duration
  private let client: HTTPClient

  /// An API at `baseURL`, through `client` (by default AsyncHTTPClient's
  /// shared one, which needs no shutdown).
  public init(baseURL: String, timeout: Duration = .seconds(10), client: HTTPClient = .shared) {
    self.baseURL = baseURL
    self.timeout = timeout
    self.client = client
  }

  /// The URL of `request`'s page.
  public func url(for request: PageRequest) -> String {
    var components = URLComponents(string: baseURL + "/search")!
    components.queryItems = [
      URLQueryItem(name: "q", value: request.query),
      URLQueryItem(name: "page", value: String(request.page)),
    ]
    return components.string!
  }

  /// Asks the server for `request`'s page.
  ///
  /// Throws ``SearchFailure/server(status:)`` for an error status,
  /// ``SearchFailure/invalidResponse`` for an answer that is not a page,
  /// ``SearchFailure/unreachable`` when no answer came within ``timeout``
  /// (AsyncHTTPClient tries a refused connection again until then), and
  /// `CancellationError` when the calling task was cancelled.
  public func page(_ request: PageRequest) async throws -> Page {
    let body: Data
    do {
      let response = try await client.execute(
        HTTPClientRequest(url: url(for: request)), timeout: .milliseconds(timeout.milliseconds))
      guard response.status == .ok else { throw SearchFailure.server(status: Int(response.status.code)) }
      body = Data(try await response.body.collect(upTo: 4 << 20).readableBytesView)
    } catch let failure as SearchFailure {
      throw failure
    } catch {
      if Task.isCancelled { throw CancellationError() }
      throw SearchFailure.unreachable
    }
    do {
      return try JSONDecoder().decode(Page.self, from: body)
    } catch {
      throw SearchFailure.invalidResponse
    }
  }
}

extension Duration {
  /// The duration in whole milliseconds.
  fileprivate var milliseconds: Int64 {
    components.seconds * 1_000 + components.attoseconds / 1_000_000_000_000_000
  }
}
