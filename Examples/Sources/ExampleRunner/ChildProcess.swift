import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// A child process whose standard output the parent reads line by line, and
/// which it may kill with SIGKILL: the durable example's scripted session
/// runs the downloads in one.
///
/// Started with `posix_spawn` (the crash tests of the SQLite journal found
/// Foundation's `Process` to hang in `waitUntilExit` on Linux): its standard
/// input is `/dev/null`, its standard error a file.
final class ChildProcess: Sendable {
  let pid: pid_t
  private let lines: AsyncStream<String>
  /// The exit status once reaped; the lock also keeps a pid that may have
  /// been reused from being killed.
  private let status = Mutex<Int32?>(nil)

  init(executable: String, arguments: [String], standardErrorPath: String) throws {
    var outputPipe: [Int32] = [0, 0]
    guard pipe(&outputPipe) == 0 else { throw ChildProcessFailure("pipe failed: errno \(errno)") }
    _ = fcntl(outputPipe[0], F_SETFD, FD_CLOEXEC)
    var actions = posix_spawn_file_actions_t()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
    posix_spawn_file_actions_adddup2(&actions, outputPipe[1], 1)
    posix_spawn_file_actions_addopen(&actions, 2, standardErrorPath, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    let argv: [UnsafeMutablePointer<CChar>?] = ([executable] + arguments).map { strdup($0) } + [nil]
    defer { argv.forEach { free($0) } }
    var spawnedPID = pid_t()
    let spawned = posix_spawn(&spawnedPID, executable, &actions, nil, argv, environ)
    close(outputPipe[1])
    guard spawned == 0 else {
      close(outputPipe[0])
      throw ChildProcessFailure("cannot start \(executable): posix_spawn failed with \(spawned)")
    }
    pid = spawnedPID
    let output = outputPipe[0]
    let (stream, continuation) = AsyncStream<String>.makeStream()
    lines = stream
    // A thread of its own: a blocking read must not hold a task of the pool.
    Thread.detachNewThread {
      var buffer: [UInt8] = []
      var chunk = [UInt8](repeating: 0, count: 16_384)
      while true {
        let count = chunk.withUnsafeMutableBytes { read(output, $0.baseAddress!, $0.count) }
        if count < 0 && errno == EINTR { continue }
        if count <= 0 { break }
        buffer += chunk[0..<count]
        while let newline = buffer.firstIndex(of: UInt8(ascii: "\n")) {
          continuation.yield(String(decoding: buffer[..<newline], as: UTF8.self))
          buffer.removeSubrange(...newline)
        }
      }
      if !buffer.isEmpty { continuation.yield(String(decoding: buffer, as: UTF8.self)) }
      close(output)
      continuation.finish()
    }
  }

  deinit {
    _ = kill()
  }

  /// The child's output, line by line; it ends when the child does.
  var outputLines: AsyncStream<String> { lines }

  /// Kills the child with SIGKILL (unless it has ended) and reaps it; true
  /// when the kill is what ended it.
  @discardableResult
  func kill() -> Bool {
    status.withLock { status in
      guard status == nil else { return false }
      _ = sendSignal(pid, SIGKILL)
      status = Self.reap(pid)
      return status.map { $0 & 0x7f == SIGKILL } ?? false
    }
  }

  /// Waits for the child to end; its exit status (128 + the signal's number
  /// when a signal ended it).
  func waitForExit() async -> Int32 {
    while true {
      // Polled under the lock, never blocking in it, so that `kill` (a
      // watchdog's) is never held up by the wait.
      let reaped = status.withLock { status -> Int32? in
        if status == nil {
          var raw: Int32 = 0
          if waitpid(pid, &raw, WNOHANG) == pid { status = raw }
        }
        return status
      }
      if let reaped { return Self.exitCode(reaped) }
      try? await Task.sleep(for: .milliseconds(10))
    }
  }

  private static func reap(_ pid: pid_t) -> Int32 {
    var status: Int32 = 0
    while waitpid(pid, &status, 0) == -1 && errno == EINTR {}
    return status
  }

  private static func exitCode(_ status: Int32) -> Int32 {
    status & 0x7f == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
  }
}

/// `kill(2)`, which the instance method of the same name hides.
private func sendSignal(_ pid: pid_t, _ signal: Int32) -> Int32 {
  #if canImport(Glibc)
    Glibc.kill(pid, signal)
  #else
    Darwin.kill(pid, signal)
  #endif
}

/// Why a child process could not be started, or failed.
struct ChildProcessFailure: Error, CustomStringConvertible {
  let description: String
  init(_ description: String) { self.description = description }
}
