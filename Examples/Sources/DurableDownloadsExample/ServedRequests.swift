import Foundation
import Synchronization

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The download server's table of served requests, by idempotency key: what
/// lets it answer a request sent again after a crash without doing the work
/// twice, as a service's dedupe table does.
///
/// Kept in a file of its own, one line per served key (`KEY<tab>FILE<tab>CHUNK`),
/// each written and flushed to the disk (`fsync`) before the answer leaves,
/// so that it outlives the client's process, as a real server's table does.
/// In memory only when made without a path (tests).
///
/// ```swift
/// let served = try ServedRequests(path: directory + "/served.log")
/// served.record(key: "downloads/4/fetch/atlas.iso chunk 0 attempt 1", request: request)
/// served.contains(key: "downloads/4/fetch/atlas.iso chunk 0 attempt 1")  // true
/// ```
public final class ServedRequests: Sendable {
  /// One served request: its key, and the file and chunk it delivered.
  public struct Entry: Sendable, Hashable {
    public var key: String
    public var file: String
    public var chunk: Int
  }

  private let descriptor: Int32?
  private let entries: Mutex<[Entry]>

  /// A table in memory only.
  public init() {
    descriptor = nil
    entries = Mutex([])
  }

  /// The table in the file at `path`, read if it exists, created if not.
  public init(path: String) throws {
    entries = Mutex(try Self.read(path))
    let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o644)
    guard descriptor >= 0 else {
      throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: path, "errno": errno])
    }
    self.descriptor = descriptor
  }

  deinit {
    if let descriptor { close(descriptor) }
  }

  /// The entries of the file at `path`, in the order they were served; a
  /// last line that a kill cut short is not one.
  public static func read(_ path: String) throws -> [Entry] {
    guard FileManager.default.fileExists(atPath: path) else { return [] }
    var lines = try String(contentsOfFile: path, encoding: .utf8).split(
      separator: "\n", omittingEmptySubsequences: false)
    lines.removeLast()  // after the last newline: empty, or a line cut short
    return lines.compactMap { line in
      let fields = line.split(separator: "\t", omittingEmptySubsequences: false)
      guard fields.count == 3, let chunk = Int(fields[2]) else { return nil }
      return Entry(key: String(fields[0]), file: String(fields[1]), chunk: chunk)
    }
  }

  /// Whether a request with `key` was served.
  public func contains(key: String) -> Bool {
    entries.withLock { $0.contains { $0.key == key } }
  }

  /// Every served request, in order.
  public var all: [Entry] { entries.withLock { $0 } }

  /// Records that the request with `key` was served; the line is on the
  /// disk when this returns.
  public func record(key: String, request: ChunkRequest) {
    let entry = Entry(key: key, file: request.file, chunk: request.chunk)
    entries.withLock { entries in
      entries.append(entry)
      guard let descriptor else { return }
      let bytes = Array("\(key)\t\(request.file)\t\(request.chunk)\n".utf8)
      let written = bytes.withUnsafeBytes { write(descriptor, $0.baseAddress!, $0.count) }
      if written != bytes.count || fsync(descriptor) != 0 {
        fatalError("The download server could not write its table of served requests: errno \(errno)")
      }
    }
  }
}
