import Foundation

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A stand-in for the monitor's port for applications, written with the
/// platform's sockets and nothing of the client's: a listener on loopback
/// that takes one connection, hands the test each line it reads, and writes
/// what the test tells it to.
final class LoopbackMonitor: Sendable {
  let port: Int
  private let listener: Int32

  init() throws {
    #if canImport(Glibc)
      let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
    #else
      let listener = socket(AF_INET, SOCK_STREAM, 0)
    #endif
    self.listener = listener
    guard listener >= 0 else { throw LoopbackError(call: "socket") }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    #if canImport(Darwin)
      address.sin_len = UInt8(MemoryLayout<sockaddr_in>.size)
    #endif
    address.sin_addr.s_addr = UInt32(0x7F00_0001).bigEndian
    address.sin_port = 0
    let length = socklen_t(MemoryLayout<sockaddr_in>.size)
    let bound = withUnsafePointer(to: &address) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) }
    }
    guard bound == 0, listen(listener, 4) == 0 else { throw LoopbackError(call: "bind") }
    var named = sockaddr_in()
    var namedLength = length
    _ = withUnsafeMutablePointer(to: &named) {
      $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &namedLength) }
    }
    port = Int(UInt16(bigEndian: named.sin_port))
  }

  /// The next connection, once a client has made it.
  func accept() async throws -> LoopbackPeer {
    let listener = self.listener
    return try await withCheckedThrowingContinuation { accepted in
      Thread.detachNewThread {
        #if canImport(Glibc)
          let descriptor = Glibc.accept(listener, nil, nil)
        #else
          let descriptor = Darwin.accept(listener, nil, nil)
        #endif
        accepted.resume(
          with: descriptor >= 0 ? .success(LoopbackPeer(descriptor)) : .failure(LoopbackError(call: "accept")))
      }
    }
  }

  /// Stops listening: a client that connects now is refused.
  func close() {
    #if canImport(Glibc)
      _ = Glibc.close(listener)
    #else
      _ = Darwin.close(listener)
    #endif
  }
}

/// One accepted connection: the lines the client wrote, in order, ending
/// when the client ends its side.
final class LoopbackPeer: Sendable {
  let lines: AsyncStream<String>
  private let descriptor: Int32
  private let readerDone = DispatchSemaphore(value: 0)

  fileprivate init(_ descriptor: Int32) {
    self.descriptor = descriptor
    let (lines, received) = AsyncStream<String>.makeStream()
    self.lines = lines
    let done = readerDone
    Thread.detachNewThread {
      var pending: [UInt8] = []
      var buffer = [UInt8](repeating: 0, count: 4_096)
      while case let count = recv(descriptor, &buffer, buffer.count, 0), count > 0 {
        for byte in buffer[..<count] {
          if byte == 0x0A {
            received.yield(String(decoding: pending, as: UTF8.self))
            pending = []
          } else {
            pending.append(byte)
          }
        }
      }
      received.finish()
      done.signal()
    }
  }

  /// Writes `line` and its newline.
  func send(_ line: String) {
    let bytes = Array((line + "\n").utf8)
    #if canImport(Glibc)
      _ = Glibc.send(descriptor, bytes, bytes.count, Int32(MSG_NOSIGNAL))
    #else
      _ = Darwin.send(descriptor, bytes, bytes.count, 0)
    #endif
  }

  /// Closes the connection, as the monitor does when it is done with an
  /// application; returns once the reading thread has ended.
  func close() {
    _ = shutdown(descriptor, Int32(SHUT_RDWR))
    readerDone.wait()
    #if canImport(Glibc)
      _ = Glibc.close(descriptor)
    #else
      _ = Darwin.close(descriptor)
    #endif
  }
}

struct LoopbackError: Error {
  var call: String
  var code = errno
}
