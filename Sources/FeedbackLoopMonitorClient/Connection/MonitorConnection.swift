import Dispatch
import FeedbackLoop
import Foundation

/// A connection to the monitor on two threads of its own: one reads the
/// monitor's lines and hands each over, one writes the lines that wait in
/// ``OutgoingLines``.
///
/// Their socket calls block, so they run on threads of the connection's, not
/// on the concurrency pool's, where a blocked call would hold one of the few
/// threads the app's tasks share. A debugging link costs two threads, most
/// of the time asleep.
///
/// It ends in order: the outgoing lines finish (``MonitorClient/close()``,
/// or the monitor went away), the writer writes what waits, then ends its
/// direction; the monitor reads to that end and closes, which ends the
/// reader; the last to end closes the socket. A monitor that does not close
/// within ``lingerTimeLimit`` is cut off.
final class MonitorConnection: Sendable {
  /// How long the writer, done, waits for the monitor to close its side:
  /// 5 seconds. A connection reads it when it is made; it is task-local so
  /// that a test of a monitor that never closes can shorten it.
  @TaskLocal static var lingerTimeLimit = DispatchTimeInterval.seconds(5)

  private let lingerTimeLimit = MonitorConnection.lingerTimeLimit
  private let socket: TCPSocket
  private let outgoing: OutgoingLines
  private let readerEnded = DispatchSemaphore(value: 0)
  private let ended = ConnectionEnd()
  /// Whether the socket is closed: guards ``abort()`` against shutting
  /// down a descriptor whose number another file may already hold.
  private let closed = Locked(false)

  init(socket: TCPSocket, outgoing: OutgoingLines) {
    self.socket = socket
    self.outgoing = outgoing
  }

  /// Starts both threads. `received` gets each of the monitor's lines
  /// (without its newline), on the reading thread, and says whether to read
  /// on; `readingEnded` is called once, when the monitor's side has ended.
  func start(
    received: @escaping @Sendable (String) -> Bool, readingEnded: @escaping @Sendable () -> Void
  ) {
    Thread.detachNewThread { [self] in
      read(received)
      readingEnded()
      readerEnded.signal()
    }
    Thread.detachNewThread { [self] in write() }
  }

  /// Ends both directions now: the threads wake and end, and what waits to
  /// be written is not written. For a handshake that failed.
  func abort() {
    closed.withLock { closed in
      if !closed { socket.shutdownBoth() }
    }
  }

  /// Returns once both threads have ended and the socket is closed.
  func waitForEnd() async {
    await ended.wait()
  }

  private func read(_ received: (String) -> Bool) {
    var splitter = LineSplitter()
    let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: 64 << 10, alignment: 1)
    defer { buffer.deallocate() }
    while case let count = socket.receive(into: buffer), count > 0 {
      for line in splitter.lines(endedBy: UnsafeRawBufferPointer(rebasing: buffer[..<count])) {
        guard received(line) else { return }
      }
    }
  }

  private func write() {
    var bytes: [UInt8] = []
    var failed = false
    while let lines = outgoing.take() {
      // A failed write ended the connection: what waits is dropped.
      guard !failed else { continue }
      bytes.removeAll(keepingCapacity: true)
      for line in lines {
        bytes.append(contentsOf: line.utf8)
        bytes.append(0x0A)
      }
      failed = bytes.withUnsafeBytes { socket.send($0) } != 0
      if failed { outgoing.finish() }
    }
    if !failed { socket.shutdownWriting() }
    if readerEnded.wait(timeout: .now() + lingerTimeLimit) == .timedOut {
      abort()
      readerEnded.wait()
    }
    closed.withLock { closed in
      closed = true
      socket.close()
    }
    ended.signal()
  }
}
