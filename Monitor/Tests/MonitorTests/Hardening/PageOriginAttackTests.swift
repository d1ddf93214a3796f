import Foundation
import NIOCore
import Testing

@testable import MonitorServer

/// What another site's page (or a hand-written client) tries on the page's
/// port past a plain foreign `Origin`: requests on one connection, two
/// `Origin` headers, another spelling of the socket's path, default ports.
@Suite struct PageOriginAttackTests {
  /// The status lines of the answers to `request`, up to `count` of them or until the connection closes.
  static func statusLines(port: Int, _ request: String, count: Int) async throws -> [String] {
    let connection = try await RawConnection.open(port)
    return try await connection.executeThenClose { inbound, outbound in
      try await outbound.write(ByteBuffer(string: request))
      var statuses: [String] = []
      // An answer's body without a newline at its end fails the line decoder when the connection closes: the end.
      do {
        for try await line in inbound {
          let text = String(buffer: line)
          if text.hasPrefix("HTTP/1.1 ") { statuses.append(text) }
          if statuses.count == count { break }
        }
      } catch {}
      return statuses
    }
  }

  static func handshake(port: Int, secret: String, path: String = "/live", origins: [String]) -> String {
    "GET \(path)?secret=\(secret) HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n"
      + "Upgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n"
      + "Sec-WebSocket-Version: 13\r\n" + origins.map { "Origin: \($0)\r\n" }.joined() + "\r\n"
  }

  @Test("a refused handshake closes its connection: a request sent after it on the connection is not answered")
  func nothingAfterARefusal() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let port = ports.page
    let refused = Self.handshake(port: port, secret: server.secret, origins: ["http://evil.example"])
    let good = Self.handshake(port: port, secret: server.secret, origins: ["http://127.0.0.1:\(port)"])
    let statuses = try await Self.statusLines(port: port, refused + good, count: 2)
    #expect(statuses == ["HTTP/1.1 403 Forbidden"])
    await server.stop()
  }

  @Test("a foreign handshake after a plain request on the same connection is not upgraded")
  func foreignHandshakeAfterAPlainRequest() async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let port = ports.page
    let plain = "GET /index.html HTTP/1.1\r\nHost: 127.0.0.1:\(port)\r\n\r\n"
    let foreign = Self.handshake(port: port, secret: server.secret, origins: ["http://evil.example"])
    let statuses = try await Self.statusLines(port: port, plain + foreign, count: 2)
    #expect(statuses.first == "HTTP/1.1 200 OK")
    #expect(!statuses.contains("HTTP/1.1 101 Switching Protocols"))
    await server.stop()
  }

  @Test(
    "two Origin headers, one of them another site's, are refused in either order",
    arguments: [true, false])
  func twoOrigins(foreignFirst: Bool) async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let port = ports.page
    let origins = ["http://evil.example", "http://127.0.0.1:\(port)"]
    let request = Self.handshake(
      port: port, secret: server.secret, origins: foreignFirst ? origins : origins.reversed())
    let statuses = try await Self.statusLines(port: port, request, count: 1)
    #expect(statuses.count == 1)
    #expect(!statuses.contains("HTTP/1.1 101 Switching Protocols"))
    await server.stop()
  }

  @Test(
    "another spelling of the socket's path does not get a foreign page upgraded",
    arguments: ["/live/", "//live", "/live/.", "/LIVE", "/./live"])
  func otherPaths(path: String) async throws {
    let server = MonitorServer()
    let ports = try await server.start()
    let port = ports.page
    let request = Self.handshake(port: port, secret: server.secret, path: path, origins: ["http://evil.example"])
    let statuses = try await Self.statusLines(port: port, request, count: 1)
    #expect(statuses.count == 1)
    #expect(!statuses.contains("HTTP/1.1 101 Switching Protocols"))
    await server.stop()
  }

  @Test(
    "on port 80 the page's own origin leaves the port out, as browsers write it",
    arguments: [
      ("http://127.0.0.1", true), ("http://127.0.0.1:80", true), ("http://localhost", true),
      ("http://127.0.0.1:8080", false), ("http://127.0.0.1:", false), ("http://127.0.0.1:0", false),
    ])
  func defaultPort(origin: String, allowed: Bool) {
    #expect(PageOrigin(host: "127.0.0.1", port: 80).allows(origin: origin, host: "127.0.0.1") == allowed)
  }

  @Test(
    "on loopback, the Host a request claims lets no other origin in, nor other spellings of loopback",
    arguments: [
      ("http://evil.example:7070", "evil.example:7070"), ("http://127.0.0.2:7070", "127.0.0.2:7070"),
      ("http://[0:0:0:0:0:0:0:1]:7070", "[0:0:0:0:0:0:0:1]:7070"), ("http://2130706433:7070", "127.0.0.1:7070"),
      ("http://localhost.:7070", "localhost.:7070"), ("http://127.0.0.1:7070 http://evil.example", "127.0.0.1:7070"),
      ("file://", "127.0.0.1:7070"), ("http://127.0.0.1:7070@evil.example", "127.0.0.1:7070"),
    ])
  func loopbackIgnoresHost(origin: String, host: String) {
    #expect(!PageOrigin(host: "127.0.0.1", port: 7_070).allows(origin: origin, host: host))
  }
}
