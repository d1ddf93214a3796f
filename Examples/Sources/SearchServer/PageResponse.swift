import Hummingbird
import SearchExample

/// A ``SearchExample/Page`` as a Hummingbird response: encoded as JSON by the
/// request context's encoder.
struct PageResponse: ResponseEncodable {
  let page: Page

  func encode(to encoder: any Encoder) throws {
    try page.encode(to: encoder)
  }
}
