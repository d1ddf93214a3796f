import Foundation
import GRDB

/// A ``SQLiteJournal`` call that failed: which file, what the journal was
/// doing, and what went wrong.
///
/// ```swift
/// do {
///   _ = try await journal.append(batches)
/// } catch let error as SQLiteJournalError where error.reason == .full {
///   // nothing of the call was stored; free space, then append again
/// }
/// ```
public struct SQLiteJournalError: Error, Sendable, CustomStringConvertible {
  /// What the journal was doing. Grows: compare with `==`.
  public struct Operation: Sendable, Hashable, CustomStringConvertible {
    public let description: String
    public static let open = Operation(description: "open")
    public static let append = Operation(description: "append to")
    public static let claim = Operation(description: "claim a system in")
    public static let load = Operation(description: "load from")
    public static let list = Operation(description: "list the systems of")
    public static let delete = Operation(description: "delete from")
    public static let close = Operation(description: "close")
  }

  /// The kind of fault. Grows: compare with `==`.
  public struct Reason: Sendable, Hashable, CustomStringConvertible {
    public let description: String
    /// The file is not a database, or its content is damaged
    /// (`SQLITE_CORRUPT`, `SQLITE_NOTADB`).
    public static let corrupted = Reason(description: "the file is corrupted or is not a SQLite database")
    /// The disk is full, or the file reached its maximum page count
    /// (`SQLITE_FULL`).
    public static let full = Reason(description: "the disk is full or the file reached its maximum size")
    /// The file, its folder or the disk cannot be written (`SQLITE_READONLY`,
    /// `SQLITE_PERM`, `SQLITE_CANTOPEN`).
    public static let readOnly = Reason(description: "the file cannot be written (read-only)")
    /// Another connection held the lock longer than the busy timeout
    /// (`SQLITE_BUSY`, `SQLITE_LOCKED`).
    public static let busy = Reason(description: "another connection kept the database locked")
    /// The operating system failed a read or a write (`SQLITE_IOERR`).
    public static let inputOutput = Reason(description: "the operating system failed a read or a write")
    /// Anything else; ``SQLiteJournalError/sqliteMessage`` says what.
    public static let other = Reason(description: "SQLite failed")
  }

  /// The database file.
  public var path: String
  public var operation: Operation
  public var reason: Reason
  /// SQLite's own message, with its result code.
  public var sqliteMessage: String

  public init(path: String, operation: Operation, reason: Reason, sqliteMessage: String) {
    self.path = path
    self.operation = operation
    self.reason = reason
    self.sqliteMessage = sqliteMessage
  }

  init(path: String, operation: Operation, error: any Error) {
    if let error = error as? SQLiteJournalError {
      self = error
      return
    }
    let reason: Reason
    var message = String(describing: error)
    if let error = error as? DatabaseError {
      message = "\(error.message ?? "no message") (\(error.extendedResultCode))"
      switch error.resultCode {
      case .SQLITE_CORRUPT, .SQLITE_NOTADB: reason = .corrupted
      case .SQLITE_FULL: reason = .full
      case .SQLITE_READONLY, .SQLITE_PERM, .SQLITE_CANTOPEN: reason = .readOnly
      case .SQLITE_BUSY, .SQLITE_LOCKED: reason = .busy
      case .SQLITE_IOERR: reason = .inputOutput
      default: reason = .other
      }
    } else {
      reason = .other
    }
    self.init(path: path, operation: operation, reason: reason, sqliteMessage: message)
  }

  public var description: String {
    let consequence = operation == .append ? " Nothing of this append was stored." : ""
    return "Could not \(operation) the SQLite journal at \(path): \(reason) (SQLite: \(sqliteMessage)).\(consequence)"
  }
}
