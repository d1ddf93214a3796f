/// A ``PostgresJournal`` operation that the server refused or could not
/// complete: the connection dropped, the server stopped, a table is missing.
///
/// Nothing of a failed ``PostgresJournal/append(_:)`` is stored: its
/// transaction is rolled back (or never committed).
///
/// ```swift
/// do {
///   _ = try await journal.append(batches)
/// } catch let error as PostgresJournalError {
///   logger.error("\(error)")  // names the operation and the server's answer
/// }
/// ```
public struct PostgresJournalError: Error, Sendable, CustomStringConvertible {
  /// What the journal was doing, such as `append 3 batches` or
  /// `load "cart-42"`.
  public var operation: String
  /// The driver's or the server's account of the failure, in full.
  public var reason: String

  public init(operation: String, reason: String) {
    self.operation = operation
    self.reason = reason
  }

  public var description: String {
    "The PostgreSQL journal could not \(operation): \(reason)"
  }
}
