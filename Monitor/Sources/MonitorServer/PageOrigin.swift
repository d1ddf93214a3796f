/// Which web origins may talk to the monitor's page endpoints (its WebSocket
/// and the fixtures export): the page's own, `http://host:port` as the
/// monitor serves it. A page from anywhere else is refused, even with the
/// secret: browsers let any site open a WebSocket to loopback, and a
/// WebSocket is not held by the same-origin policy, so the server checks
/// the `Origin` header itself.
///
/// - A request without `Origin` is let through: browsers always send one
///   on a WebSocket handshake and a POST, tools and other programs send
///   none, and the secret still guards them.
/// - On loopback (the default), the page's own origin is `127.0.0.1`,
///   `localhost` or `[::1]` with the page's port, whatever `Host` says (a
///   site that rebinds its name to 127.0.0.1 still has its own origin).
/// - On another address, the address itself, or the name the browser used
///   to reach the monitor (`Origin` naming the request's own `Host`):
///   listening on every address, the monitor cannot know its names.
///
/// ```swift
/// let origins = PageOrigin(host: "127.0.0.1", port: 7_070)
/// origins.allows(origin: "http://localhost:7070", host: "localhost:7070")  // true
/// origins.allows(origin: "https://example.com", host: "127.0.0.1:7070")   // false
/// ```
struct PageOrigin: Sendable, Hashable {
  /// The address the page is served on (`MonitorServer.host`).
  var host: String
  /// The port the page is served on.
  var port: Int

  private static let loopbackNames: Set<String> = ["127.0.0.1", "localhost", "[::1]"]

  private var servesLoopbackOnly: Bool { Self.loopbackNames.contains(Self.bracketed(host.lowercased())) }

  /// Whether a request with this `Origin` header (nil: none) and this
  /// `Host` header (its authority) comes from the page's own origin.
  func allows(origin: String?, host requestHost: String?) -> Bool {
    guard let origin else { return true }
    let lowered = origin.lowercased()
    guard lowered.hasPrefix("http://"), let authority = Self.authority(String(lowered.dropFirst("http://".count)))
    else { return false }
    guard authority.port == port else { return false }
    if servesLoopbackOnly { return Self.loopbackNames.contains(authority.host) }
    if authority.host == Self.bracketed(host.lowercased()) { return true }
    guard let requestHost, let requested = Self.authority(requestHost.lowercased()) else { return false }
    return requested.host == authority.host && requested.port == port
  }

  /// `host[:port]` (an IPv6 host in brackets), the port 80 when left out;
  /// nil for anything else (a path, user info, `null`).
  private static func authority(_ text: String) -> (host: String, port: Int)? {
    guard !text.isEmpty, !text.contains(where: { "/?#@ ".contains($0) }) else { return nil }
    let host: Substring
    let rest: Substring
    if text.hasPrefix("[") {
      guard let close = text.firstIndex(of: "]") else { return nil }
      host = text[...close]
      rest = text[text.index(after: close)...]
    } else if let colon = text.firstIndex(of: ":") {
      host = text[..<colon]
      rest = text[colon...]
    } else {
      host = Substring(text)
      rest = ""
    }
    guard !host.isEmpty else { return nil }
    if rest.isEmpty { return (String(host), 80) }
    guard rest.hasPrefix(":"), let port = Int(rest.dropFirst()), (1...65_535).contains(port) else { return nil }
    return (String(host), port)
  }

  /// An IPv6 address as it appears in a URL: in brackets.
  private static func bracketed(_ address: String) -> String {
    address.contains(":") && !address.hasPrefix("[") ? "[\(address)]" : address
  }
}
