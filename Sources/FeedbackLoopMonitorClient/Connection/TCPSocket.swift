// The platform's own sockets, not a network library. The client is a product
// of the library, and every dependency of a product is resolved and built by
// each app that adds it: SwiftNIO (what the monitor's server uses) would have
// every such app build NIO for one line-based connection, and the packages
// this project may use offer no lighter client. POSIX sockets exist on every
// platform the library declares (Glibc on Linux, Darwin on Apple's).
#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#else
  #error("FeedbackLoopMonitorClient needs POSIX sockets (Glibc or Darwin)")
#endif

/// One connected TCP socket, blocking: its calls are made on the
/// connection's own threads (``MonitorConnection``), never on the
/// concurrency pool's.
struct TCPSocket: Sendable {
  let descriptor: Int32

  /// Connects to `host`:`port`, trying each address the name resolves to, in
  /// order; gives up on an address after `timeLimit` (a firewall that drops
  /// the packets would otherwise hold the connection for minutes).
  static func connect(host: String, port: Int, timeLimit: Duration) throws(MonitorNetworkError) -> TCPSocket {
    func failure(_ reason: String) -> MonitorNetworkError {
      MonitorNetworkError(host: host, port: port, reason: reason)
    }
    var hints = addrinfo()
    hints.ai_family = AF_UNSPEC
    hints.ai_socktype = streamType
    var addresses: UnsafeMutablePointer<addrinfo>?
    let status = getaddrinfo(host, String(port), &hints, &addresses)
    guard status == 0, let first = addresses else {
      throw failure(status == EAI_SYSTEM ? errorText(errno) : String(cString: gai_strerror(status)))
    }
    defer { freeaddrinfo(first) }
    var lastError = failure("no address")
    var next: UnsafeMutablePointer<addrinfo>? = first
    while let address = next?.pointee {
      next = address.ai_next
      let descriptor = socket(address.ai_family, address.ai_socktype | closeOnExec, address.ai_protocol)
      guard descriptor >= 0 else {
        lastError = failure(errorText(errno))
        continue
      }
      let connected = connect(descriptor, address.ai_addr, address.ai_addrlen, timeLimit: timeLimit)
      guard connected == 0 else {
        _ = systemClose(descriptor)
        lastError = failure(errorText(connected))
        continue
      }
      return TCPSocket(configuring: descriptor)
    }
    throw lastError
  }

  /// Connects without blocking, then waits at most `timeLimit` for the
  /// connection; returns 0, or the error's number.
  private static func connect(
    _ descriptor: Int32, _ address: UnsafeMutablePointer<sockaddr>?, _ length: socklen_t, timeLimit: Duration
  ) -> Int32 {
    let flags = fcntl(descriptor, F_GETFL)
    guard flags >= 0, fcntl(descriptor, F_SETFL, flags | O_NONBLOCK) == 0 else { return errno }
    if systemConnect(descriptor, address, length) != 0 {
      guard errno == EINPROGRESS || errno == EINTR else { return errno }
      let (seconds, attoseconds) = timeLimit.components
      let milliseconds = Int32(clamping: max(0, seconds) * 1_000 + max(0, attoseconds) / 1_000_000_000_000_000)
      var waiting = pollfd(fd: descriptor, events: Int16(POLLOUT), revents: 0)
      var ready: Int32
      repeat { ready = poll(&waiting, 1, milliseconds) } while ready < 0 && errno == EINTR
      guard ready > 0 else { return ready == 0 ? ETIMEDOUT : errno }
      var pending: Int32 = 0
      var size = socklen_t(MemoryLayout<Int32>.size)
      guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &pending, &size) == 0 else { return errno }
      guard pending == 0 else { return pending }
    }
    return fcntl(descriptor, F_SETFL, flags) == 0 ? 0 : errno
  }

  private init(configuring descriptor: Int32) {
    self.descriptor = descriptor
    var one: Int32 = 1
    // A line goes out when written: the page follows the app as it runs, and
    // Nagle's algorithm would hold a small line back for the previous one's
    // acknowledgement.
    _ = setsockopt(descriptor, Int32(IPPROTO_TCP), TCP_NODELAY, &one, socklen_t(MemoryLayout<Int32>.size))
    #if canImport(Darwin)
      // Darwin has no MSG_NOSIGNAL: a write to a connection the monitor closed
      // must fail with EPIPE, not kill the app with SIGPIPE.
      _ = setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &one, socklen_t(MemoryLayout<Int32>.size))
      _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
    #endif
  }

  /// Writes all of `bytes`; returns 0, or the error's number.
  func send(_ bytes: UnsafeRawBufferPointer) -> Int32 {
    var offset = 0
    while offset < bytes.count {
      let written = systemSend(descriptor, bytes.baseAddress! + offset, bytes.count - offset, sendFlags)
      if written < 0 {
        if errno == EINTR { continue }
        return errno
      }
      offset += written
    }
    return 0
  }

  /// Reads what has arrived, waiting for something; 0 at the end of the
  /// stream, -1 on an error.
  func receive(into buffer: UnsafeMutableRawBufferPointer) -> Int {
    while true {
      let count = recv(descriptor, buffer.baseAddress, buffer.count, 0)
      if count < 0 && errno == EINTR { continue }
      return count
    }
  }

  /// Ends the writing direction: the monitor reads to the end of what was
  /// written, then sees the end of the stream.
  func shutdownWriting() { _ = shutdown(descriptor, Int32(SHUT_WR)) }

  /// Ends both directions: a thread blocked reading wakes with the end of
  /// the stream. The descriptor stays open until ``close()``, so that no
  /// other file takes its number while a thread may still use it.
  func shutdownBoth() { _ = shutdown(descriptor, Int32(SHUT_RDWR)) }

  func close() { _ = systemClose(descriptor) }
}

/// An error number's text: "Connection refused".
private func errorText(_ code: Int32) -> String {
  String(cString: strerror(code))
}

#if canImport(Glibc)
  private let streamType = Int32(SOCK_STREAM.rawValue)
  private let closeOnExec = Int32(SOCK_CLOEXEC.rawValue)
  private let sendFlags = Int32(MSG_NOSIGNAL)
#else
  private let streamType = SOCK_STREAM
  private let closeOnExec: Int32 = 0
  private let sendFlags: Int32 = 0
#endif

// The C functions whose names the socket's own methods take.
private func systemConnect(_ descriptor: Int32, _ address: UnsafePointer<sockaddr>?, _ length: socklen_t) -> Int32 {
  connect(descriptor, address, length)
}

private func systemSend(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int, _ flags: Int32) -> Int {
  send(descriptor, bytes, count, flags)
}

private func systemClose(_ descriptor: Int32) -> Int32 {
  close(descriptor)
}
