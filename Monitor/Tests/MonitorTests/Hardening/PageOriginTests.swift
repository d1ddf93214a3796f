import Foundation
import NIOCore
import Testing

@testable import MonitorServer

#if canImport(FoundationNetworking)
  import FoundationNetworking
#endif

/// The page's WebSocket (and its fixtures export) answer only the page's own
/// origin, or a client that names none; another site's page is refused with
/// 403 before any upgrade, even with the secret.
@Suite struct PageOriginTests {
  /// The first line of the answer to a WebSocket handshake on `/live`.
  static func handshake(port: Int, secret: String, origin: String?, host: String? = nil) async throws -> String? {
    let connection = try await RawConnection.open(port)
    let request =
      "GET /live?secret=\(secret) HTTP/1.1\r\nHost: \(host ?? "127.0.0.1:\(port)")\r\n"
      + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      + "Sec-WebSocket-Version: 13\r\n" + (origin.map { "Origin: \($0)\r\n" } ?? "") + "\r\n"
    return try await connection.executeThenClose { inbound, outbound in
      try await outbound.write(ByteBuffer(string: request))
      var lines = inbound.makeAsyncIterator()
      return try await lines.next().map { String(buffer: $0) }
    }
  }

  @Test("a WebSocket from another site's page is refused with 403, even with the secret; the page's own is upgraded")
  func foreignOriginIsRefused() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let secret = server.secret
    let port = ports.page
    #expect(
      try await Self.handshake(port: port, secret: secret, origin: "http://evil.example") == "HTTP/1.1 403 Forbidden")
    #expect(
      try await Self.handshake(port: port, secret: secret, origin: "http://127.0.0.1:\(port + 1)")
        == "HTTP/1.1 403 Forbidden")
    #expect(try await Self.handshake(port: port, secret: secret, origin: "null") == "HTTP/1.1 403 Forbidden")
    // A site whose name was rebound to 127.0.0.1 sends its own name, in Origin and Host alike.
    #expect(
      try await Self.handshake(
        port: port, secret: secret, origin: "http://rebound.example:\(port)", host: "rebound.example:\(port)")
        == "HTTP/1.1 403 Forbidden")
    #expect(
      try await Self.handshake(port: port, secret: secret, origin: "http://127.0.0.1:\(port)")
        == "HTTP/1.1 101 Switching Protocols")
    #expect(
      try await Self.handshake(
        port: port, secret: secret, origin: "http://localhost:\(port)", host: "localhost:\(port)")
        == "HTTP/1.1 101 Switching Protocols")
    // No Origin: not a browser; the secret alone guards it.
    #expect(try await Self.handshake(port: port, secret: secret, origin: nil) == "HTTP/1.1 101 Switching Protocols")
    #expect(try await Self.handshake(port: port, secret: "guess", origin: nil) == "HTTP/1.1 403 Forbidden")
    await server.stop()
  }

  @Test("a fixtures export posted by another site's page is refused, even with the secret")
  func foreignOriginCannotExport() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    var request = URLRequest(url: URL(string: "http://127.0.0.1:\(ports.page)/api/fixtures?secret=\(server.secret)")!)
    request.httpMethod = "POST"
    request.httpBody = Data("{}".utf8)
    request.setValue("http://evil.example", forHTTPHeaderField: "Origin")
    let (body, response) = try await URLSession.shared.data(for: request)
    #expect((response as? HTTPURLResponse)?.statusCode == 403)
    #expect(String(decoding: body, as: UTF8.self) == "another site's page")
    await server.stop()
  }

  @Test(
    "the page's own origin: loopback names on loopback, the address or the requested name elsewhere, the port always",
    arguments: [
      ("127.0.0.1", "http://127.0.0.1:7070", "127.0.0.1:7070", true),
      ("127.0.0.1", "http://localhost:7070", "localhost:7070", true),
      ("127.0.0.1", "http://[::1]:7070", "[::1]:7070", true),
      ("127.0.0.1", "HTTP://LOCALHOST:7070", "localhost:7070", true),
      ("::1", "http://[::1]:7070", "[::1]:7070", true),
      ("127.0.0.1", "https://127.0.0.1:7070", "127.0.0.1:7070", false),
      ("127.0.0.1", "http://127.0.0.1:7071", "127.0.0.1:7070", false),
      ("127.0.0.1", "http://127.0.0.1", "127.0.0.1:7070", false),
      ("127.0.0.1", "http://evil.example:7070", "evil.example:7070", false),
      ("127.0.0.1", "http://127.0.0.1:7070/", "127.0.0.1:7070", false),
      ("127.0.0.1", "http://user@127.0.0.1:7070", "127.0.0.1:7070", false),
      ("127.0.0.1", "null", "127.0.0.1:7070", false),
      ("127.0.0.1", "", "127.0.0.1:7070", false),
      ("192.168.1.5", "http://192.168.1.5:7070", "192.168.1.5:7070", true),
      ("192.168.1.5", "http://box.local:7070", "box.local:7070", true),
      ("192.168.1.5", "http://box.local:7070", "other.local:7070", false),
      ("192.168.1.5", "http://box.local:7071", "box.local:7071", false),
      ("0.0.0.0", "http://box.local:7070", "box.local:7070", true),
      ("0.0.0.0", "http://evil.example:7070", "box.local:7070", false),
      ("0.0.0.0", "http://box.local:7070", nil, false),
    ] as [(String, String, String?, Bool)])
  func ownOrigin(host: String, origin: String, requestHost: String?, allowed: Bool) {
    #expect(PageOrigin(host: host, port: 7_070).allows(origin: origin, host: requestHost) == allowed)
  }

  @Test("no Origin is let through: a program, not a page; the secret guards it")
  func noOrigin() {
    #expect(PageOrigin(host: "127.0.0.1", port: 7_070).allows(origin: nil, host: nil))
  }
}
