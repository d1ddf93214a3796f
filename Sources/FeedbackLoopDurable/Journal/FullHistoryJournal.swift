/// A ``Journal`` that keeps a system's events before its latest snapshot
/// and reads them a page at a time, so that a replay check can fold a
/// system's whole history and compare it with the stored snapshot.
///
/// A restore never needs it: ``Journal/load(_:)`` is enough. A backend
/// that deletes the events a snapshot covers is a plain ``Journal``; the
/// replay check then decodes its records without comparing its snapshots.
///
/// ```swift
/// var after: UInt64 = 0
/// while case let page = try await journal.events(of: "cart-42", after: after, limit: 1_000), !page.isEmpty {
///   for record in page { print(record.sequence) }
///   after = page.last!.sequence
/// }
/// ```
public protocol FullHistoryJournal: Journal {
  /// The events of a system numbered above `sequence`, in ascending
  /// order, at most `limit` of them; empty for an unknown id.
  func events(of systemID: String, after sequence: UInt64, limit: Int) async throws -> [JournalRecord]

  /// The latest snapshot of a system, without the events after it; `nil`
  /// when none is stored.
  func latestSnapshot(of systemID: String) async throws -> JournalRecord?
}
