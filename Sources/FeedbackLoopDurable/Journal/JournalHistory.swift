import Foundation

/// What a ``Journal`` holds for one system: the latest snapshot, and the
/// events after it in order.
///
/// ```swift
/// if let history = try await journal.load("cart-42") {
///   var state = try history.snapshot.map { try decode($0.payload) } ?? Cart()
///   for record in history.events { state.apply(try decodeEvent(record.payload)) }
/// }
/// ```
public struct JournalHistory: Sendable, Equatable {
  /// The latest snapshot, or `nil` when none was stored.
  public var snapshot: JournalRecord?
  /// The events after the snapshot (all of them when there is none), in
  /// ascending sequence, without gaps.
  public var events: [JournalRecord]

  public init(snapshot: JournalRecord?, events: [JournalRecord]) {
    self.snapshot = snapshot
    self.events = events
  }

  /// The sequence of the last event stored (the snapshot's when no event
  /// follows it).
  public var lastSequence: UInt64 {
    events.last?.sequence ?? snapshot?.sequence ?? 0
  }
}

/// One stored event or snapshot: its sequence and its encoded bytes.
public struct JournalRecord: Sendable, Equatable {
  /// The event's number (from 1), or for a snapshot, the number of the last
  /// event it includes.
  public var sequence: UInt64
  public var payload: Data

  public init(sequence: UInt64, payload: Data) {
    self.sequence = sequence
    self.payload = payload
  }
}
