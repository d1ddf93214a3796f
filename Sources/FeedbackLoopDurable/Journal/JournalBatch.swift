import Foundation

/// What one system appends to a ``Journal`` in one transaction: its next
/// events, and optionally a snapshot of its state after the last of them.
///
/// ```swift
/// // The system, claimed at epoch 3, has stored 10 events; append two more
/// // and a snapshot of the state after the 12th.
/// let batch = JournalBatch(
///   systemID: "cart-42", epoch: 3, expectedSequence: 10,
///   events: [encodedEvent11, encodedEvent12], snapshot: encodedState12)
/// ```
public struct JournalBatch: Sendable, Equatable {
  /// The system whose journal this is.
  public var systemID: String
  /// The epoch of the writer's claim (``Journal/claim(_:)``); the batch is
  /// refused when it is not the system's current one. 0, the default, is
  /// the epoch of an id never claimed.
  public var epoch: UInt64
  /// The sequence of the last event the writer believes is stored (0 when
  /// none); the batch is refused when it is not.
  public var expectedSequence: UInt64
  /// The encoded events, numbered `expectedSequence + 1` onward.
  public var events: [Data]
  /// The encoded state after the batch's last event (after
  /// `expectedSequence` when `events` is empty), or `nil`.
  public var snapshot: Data?

  public init(systemID: String, epoch: UInt64 = 0, expectedSequence: UInt64, events: [Data], snapshot: Data? = nil) {
    self.systemID = systemID
    self.epoch = epoch
    self.expectedSequence = expectedSequence
    self.events = events
    self.snapshot = snapshot
  }

  /// The sequence of the batch's last event once appended.
  public var lastSequence: UInt64 { expectedSequence + UInt64(events.count) }
}
