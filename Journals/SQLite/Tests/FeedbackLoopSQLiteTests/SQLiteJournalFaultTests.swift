import FeedbackLoopDurable
import Foundation
import GRDB
import Testing

@testable import FeedbackLoopSQLite

@Suite("SQLiteJournal faults")
struct SQLiteJournalFaultTests {
  @Test("a file overwritten with garbage fails to open with an error naming the file and the corruption")
  func garbageFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("journal.sqlite")
    let journal = try SQLiteJournal(path: path)
    _ = try await journal.append([JournalBatch(systemID: "s", expectedSequence: 0, events: [Data("1".utf8)])])
    try journal.close()
    let size = try FileManager.default.attributesOfItem(atPath: path)[.size] as! Int
    try garbage(count: size, seed: 1).write(to: URL(fileURLWithPath: path))

    let error = try await firstError { _ = try SQLiteJournal(path: path) }
    #expect(error.reason == .corrupted)
    #expect(error.operation == .open)
    #expect(error.description.contains(path))
    #expect(error.description.contains("corrupted"))
  }

  @Test("a file whose pages after the first are overwritten fails with an error naming the file and the corruption")
  func corruptedPages() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("journal.sqlite")
    let journal = try SQLiteJournal(path: path)
    for round in 0..<20 {
      _ = try await journal.append([
        JournalBatch(
          systemID: "s", expectedSequence: UInt64(round), events: [garbage(count: 5_000, seed: UInt64(round))])
      ])
    }
    try journal.close()
    // The first page (the header and the schema) stays: the file opens, its
    // tables do not read.
    let handle = try FileHandle(forWritingTo: URL(fileURLWithPath: path))
    let size = try handle.seekToEnd()
    try handle.seek(toOffset: 4_096)
    try handle.write(contentsOf: garbage(count: Int(size) - 4_096, seed: 2))
    try handle.close()

    let error = try await firstError {
      let reopened = try SQLiteJournal(path: path)
      _ = try await reopened.load("s")
      _ = try await reopened.append([JournalBatch(systemID: "s", expectedSequence: 20, events: [Data()])])
    }
    #expect(error.reason == .corrupted, "\(error)")
    #expect(error.description.contains(path))
  }

  @Test("a full disk refuses the whole append, stores nothing of it, and appends work again once space is back")
  func fullDisk() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("journal.sqlite")
    let journal = try SQLiteJournal(path: path, maximumPageCount: 40)
    let first = try await journal.append([
      JournalBatch(systemID: "a", expectedSequence: 0, events: [Data("a1".utf8)]),
      JournalBatch(systemID: "b", expectedSequence: 0, events: [Data("b1".utf8)]),
    ])
    #expect(first == [.appended(through: 1), .appended(through: 1)])

    // 40 pages of 4 KB: a call of 300 KB does not fit. Its first batch fits
    // alone, so a journal that committed batch by batch would keep it.
    let tooLarge = [
      JournalBatch(systemID: "a", expectedSequence: 1, events: [Data("a2".utf8)], snapshot: Data("a-state".utf8)),
      JournalBatch(systemID: "b", expectedSequence: 1, events: [garbage(count: 300_000, seed: 3)]),
      JournalBatch(systemID: "c", expectedSequence: 0, events: [Data("c1".utf8)]),
    ]
    let error = try await firstError { _ = try await journal.append(tooLarge) }
    #expect(error.reason == .full)
    #expect(error.operation == .append)
    #expect(error.description.contains(path))
    #expect(error.description.contains("Nothing of this append was stored"))

    // Reads go on, and show nothing of the refused call.
    #expect(
      try await journal.load("a")
        == JournalHistory(snapshot: nil, events: [JournalRecord(sequence: 1, payload: Data("a1".utf8))]))
    #expect(try await journal.load("b")?.lastSequence == 1)
    #expect(try await journal.load("c") == nil)
    #expect(try await journal.systemIDs(after: nil, limit: 10) == ["a", "b"])
    // Still full: refused again, the same way.
    let again = try await firstError { _ = try await journal.append(tooLarge) }
    #expect(again.reason == .full)

    _ = try await journal.withWriter { database in try database.execute(sql: "PRAGMA max_page_count = 100000") }
    let results = try await journal.append(tooLarge)
    #expect(results == [.appended(through: 2), .appended(through: 2), .appended(through: 1)])
    #expect(try await journal.load("a")?.snapshot == JournalRecord(sequence: 2, payload: Data("a-state".utf8)))
    #expect(try await journal.load("b")?.events.last?.payload == garbage(count: 300_000, seed: 3))
  }

  @Test("a read-only file fails to open for writing with an error naming the file")
  func readOnlyFile() async throws {
    let directory = try TemporaryDirectory()
    defer { directory.remove() }
    let path = directory.path("journal.sqlite")
    let journal = try SQLiteJournal(path: path)
    _ = try await journal.append([JournalBatch(systemID: "s", expectedSequence: 0, events: [Data("1".utf8)])])
    try journal.close()
    try makeReadOnly(path)
    defer { makeWritable(path) }

    let error = try await firstError {
      let reopened = try SQLiteJournal(path: path)
      _ = try await reopened.append([JournalBatch(systemID: "s", expectedSequence: 1, events: [Data("2".utf8)])])
    }
    #expect(error.reason == .readOnly, "\(error)")
    #expect(error.description.contains(path))
  }
}

/// The error `body` throws, which must be a `SQLiteJournalError`.
func firstError(_ body: () async throws -> Void) async throws -> SQLiteJournalError {
  do {
    try await body()
  } catch let error as SQLiteJournalError {
    return error
  }
  Issue.record("expected a SQLiteJournalError, but nothing failed")
  throw CancellationError()
}

/// Bytes that are no SQLite page, the same for a seed.
func garbage(count: Int, seed: UInt64) -> Data {
  var state = seed &+ 0x9E37_79B9_7F4A_7C15
  return Data(
    (0..<count).map { _ in
      state ^= state << 13
      state ^= state >> 7
      state ^= state << 17
      return UInt8(truncatingIfNeeded: state)
    })
}

/// Makes a file read-only, for root too: root writes files whatever their
/// mode, but not an immutable one (`chattr +i`).
func makeReadOnly(_ path: String) throws {
  try FileManager.default.setAttributes([.posixPermissions: 0o444], ofItemAtPath: path)
  if geteuid() == 0 {
    let status = try run("/usr/bin/chattr", ["+i", path])
    if status != 0 {
      throw SetupFailure(
        "The read-only file test runs as root, and root writes any file that is not immutable; "
          + "chattr +i \(path) failed (status \(status)): run the test as another user, or on a file system "
          + "that supports chattr.")
    }
  }
}

struct SetupFailure: Error, CustomStringConvertible {
  var description: String
  init(_ description: String) { self.description = description }
}

func makeWritable(_ path: String) {
  if geteuid() == 0 { _ = try? run("/usr/bin/chattr", ["-i", path]) }
  try? FileManager.default.setAttributes([.posixPermissions: 0o644], ofItemAtPath: path)
}

func run(_ executable: String, _ arguments: [String]) throws -> Int32 {
  let process = Process()
  process.executableURL = URL(fileURLWithPath: executable)
  process.arguments = arguments
  try process.run()
  process.waitUntilExit()
  return process.terminationStatus
}
