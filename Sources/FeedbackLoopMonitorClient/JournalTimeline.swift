import FeedbackLoopDebugging
import FeedbackLoopDurable
import Foundation

/// A durable system's journal as a timeline with every state, folded
/// through the application's own reducer: what the monitor cannot compute
/// without the application's code.
///
/// A journal stores events, and a snapshot every few of them; the state
/// after each event exists only in the fold. `feedbackloop-monitor
/// journal.sqlite` shows the stored events and snapshots as they are; an
/// application (a debug command of its own, a test) writes the full
/// timeline with this, and the monitor opens the file like any recorded
/// session.
///
/// ```swift
/// let journal = try SQLiteJournal(path: "downloads.sqlite")
/// try await JournalTimeline.write(
///   of: "downloads", in: journal, initial: Downloads.State(), reduce: Downloads.reduce,
///   to: URL(fileURLWithPath: "downloads.jsonl"))
/// // feedbackloop-monitor downloads.jsonl
/// ```
///
/// The fold starts at `initial` and reads every stored event, from the
/// first: it needs a journal that keeps the events before its snapshots
/// (a `FullHistoryJournal`, as the SQLite and PostgreSQL journals are).
/// Records are decoded as today's `State` and `Event`, without migrations:
/// one that does not decode stops the fold with an error naming its sequence.
public enum JournalTimeline {
  /// A stored event that could not be decoded.
  public struct UndecodableEvent: Error, CustomStringConvertible {
    public var systemID: String
    public var sequence: UInt64
    public var underlying: any Error

    public var description: String {
      "event \(sequence) of \(systemID) does not decode as today's Event: \(underlying)"
    }
  }

  /// The moments of `systemID`: the start (`initial`), then one per stored
  /// event, with the state the reducer gives.
  public static func moments<State: Codable & Sendable, Event: Codable & Sendable>(
    of systemID: String, in journal: some FullHistoryJournal, initial: State,
    reduce: (inout State, Event) -> Void, codec: some DurableCodec = JSONDurableCodec()
  ) async throws -> [Moment<State, Event>] {
    var state = initial
    var moments = [Moment<State, Event>(sequence: 0, state: state)]
    var after: UInt64 = 0
    while case let page = try await journal.events(of: systemID, after: after, limit: 1_000), !page.isEmpty {
      for record in page {
        let event: Event
        do {
          event = try codec.decode(DurableEnvelope<Event>.self, from: record.payload).value
        } catch {
          throw UndecodableEvent(systemID: systemID, sequence: record.sequence, underlying: error)
        }
        reduce(&state, event)
        moments.append(Moment(sequence: record.sequence, event: event, state: state))
      }
      after = page.last!.sequence
    }
    return moments
  }

  /// Writes the moments of `systemID` to `url` as a timeline file (JSON
  /// lines), which `feedbackloop-monitor FILE.jsonl` opens; returns how
  /// many it wrote.
  @discardableResult
  public static func write<State: Codable & Sendable, Event: Codable & Sendable>(
    of systemID: String, in journal: some FullHistoryJournal, initial: State,
    reduce: (inout State, Event) -> Void, codec: some DurableCodec = JSONDurableCodec(), to url: URL
  ) async throws -> Int {
    let moments = try await moments(of: systemID, in: journal, initial: initial, reduce: reduce, codec: codec)
    let encoder = JSONEncoder()
    encoder.outputFormatting = .sortedKeys
    var data = Data()
    for moment in moments {
      data += try encoder.encode(moment)
      data.append(0x0A)
    }
    try data.write(to: url, options: .atomic)
    return moments.count
  }
}
