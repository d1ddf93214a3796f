import FeedbackLoopDebugging
import FeedbackLoopDurable
import Foundation

/// A durable system's journal opened as a recorded session: one moment per
/// stored event, in sequence order, read without the application's code.
///
/// A journal stores events and, every few events, a snapshot of the state
/// (the latest one only); it never stores the state after each event, which
/// only the application's reducer can compute. So the monitor shows what
/// the journal holds, decoded as JSON through the codec of timeline files
/// (the application's `Codable` State and Event, read as ``JSONValue``):
///
/// - each moment's **event** is the stored event as it is (its envelope's
///   `value`);
/// - each moment's **state** is what the journal knows at that sequence:
///
/// ```json
/// {"sequence": 12, "schemaVersion": 1, "snapshotSequence": 10, "snapshot": {"files": […]}, "eventsAfterSnapshot": 2}
/// ```
///
///   where `snapshot` is the latest snapshot at or before the moment
///   (`null` before it: the journal keeps no older one), and
///   `eventsAfterSnapshot` the events a restore at that moment would fold
///   into it. The diff between two moments shows the event counted, and at
///   the snapshot's moment, the state itself;
/// - a moment has no time and no source (the journal keeps neither: the
///   page says "external"), and no effects.
///
/// An application that wants every state on the page folds its own
/// journal through its reducer and writes a timeline file
/// (`JournalTimeline.write` in the monitor's client), which the monitor
/// opens as any other.
///
/// ```swift
/// let journal = try SQLiteJournal(path: "downloads.sqlite")
/// let session = try await JournalSession.timeline(of: "downloads", in: journal)
/// await server.hub.open(session, system: "downloads")
/// ```
public enum JournalSession {
  /// Every id with something stored in `journal`, in ascending order.
  public static func systemIDs(in journal: some Journal) async throws -> [String] {
    var ids: [String] = []
    while case let page = try await journal.systemIDs(after: ids.last, limit: 1_000), !page.isEmpty {
      ids += page
    }
    return ids
  }

  /// The stored events of `systemID`, one moment each, after a start moment
  /// (sequence 0). A record that is not a JSON envelope (another codec
  /// wrote it) is a problem of the session, naming its sequence; the
  /// others are still read.
  public static func timeline(
    of systemID: String, in journal: some FullHistoryJournal
  ) async throws -> TimelineFile<JSONValue, JSONValue> {
    var session = TimelineFile<JSONValue, JSONValue>(data: Data())
    let decoder = JSONDecoder()
    var snapshot: (sequence: UInt64, state: JSONValue)?
    if let record = try await journal.latestSnapshot(of: systemID) {
      do {
        let envelope = try decoder.decode(DurableEnvelope<JSONValue>.self, from: record.payload)
        snapshot = (record.sequence, envelope.value)
      } catch {
        session.problems.append(problem(record.sequence, "the snapshot", error))
      }
    }
    func state(at sequence: UInt64, version: Int?) -> JSONValue {
      let known = snapshot.flatMap { $0.sequence <= sequence ? $0 : nil }
      return .object([
        "sequence": .number(Double(sequence)),
        "schemaVersion": version.map { .number(Double($0)) } ?? .null,
        "snapshotSequence": known.map { .number(Double($0.sequence)) } ?? .null,
        "snapshot": known?.state ?? .null,
        "eventsAfterSnapshot": .number(Double(sequence - (known?.sequence ?? 0))),
      ])
    }
    session.moments.append(Moment(sequence: 0, state: state(at: 0, version: nil)))
    var after: UInt64 = 0
    while case let page = try await journal.events(of: systemID, after: after, limit: 1_000), !page.isEmpty {
      for record in page {
        do {
          let envelope = try decoder.decode(DurableEnvelope<JSONValue>.self, from: record.payload)
          session.moments.append(
            Moment(
              sequence: record.sequence, event: envelope.value,
              state: state(at: record.sequence, version: envelope.version)))
        } catch {
          session.problems.append(problem(record.sequence, "event \(record.sequence)", error))
        }
      }
      after = page.last!.sequence
    }
    return session
  }

  private static func problem(_ sequence: UInt64, _ what: String, _ error: any Error) -> TimelineProblem {
    TimelineProblem(
      line: Int(clamping: sequence), sequence: sequence,
      kind: .malformed("\(what) is not a JSON envelope of the durable codec: \(error)"))
  }
}
