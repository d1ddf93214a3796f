import FeedbackLoopDurable
import FeedbackLoopSQLite
import Foundation
import GRDB

/// D5: restoring a durable system from the SQLite journal, against reading
/// the same rows raw (GRDB, the journal's own tables) and folding them
/// (one JSONDecoder, each payload decoded once). Histories of 10,000 and
/// 100,000 events with a snapshot every 1,000: at 10,000 exactly the
/// restore reads the snapshot alone; the `+999` histories end 999 events
/// after a snapshot, the most a restore reads with this interval.
enum Restore {
  static let snapshotInterval = 1_000

  struct History {
    var id: String
    var eventCount: Int
  }

  static let histories = [
    History(id: "D5", eventCount: 10_000),
    History(id: "D5+999", eventCount: 10_999),
    History(id: "D5-100k", eventCount: 100_000),
    History(id: "D5-100k+999", eventCount: 100_999),
  ]

  /// Writes `history` through the journal: batches of up to 1,000 events,
  /// each ending at a multiple of 1,000 with that state's snapshot, as a
  /// durable system with `.every(1000)` stores them.
  static func write(_ history: History, to journal: SQLiteJournal) async throws {
    var stored = 0
    while stored < history.eventCount {
      let end = min((stored / snapshotInterval + 1) * snapshotInterval, history.eventCount)
      // D5 times JSON (its raw fold decodes JSON), whatever the run's codec.
      let events = (stored..<end).map { index in
        try! JSONDurableCodec().encode(DurableEnvelope(version: 1, value: Tallies.event(index)))
      }
      let snapshot =
        end % snapshotInterval == 0
        ? try JSONDurableCodec().encode(DurableEnvelope(version: 1, value: Tallies.finalState(count: end))) : nil
      let results = try await journal.append([
        JournalBatch(systemID: history.id, expectedSequence: UInt64(stored), events: events, snapshot: snapshot)
      ])
      check(results == [.appended(through: UInt64(end))], "D5 set-up: \(results)")
      stored = end
    }
  }

  static func restore(_ history: History, journal: SQLiteJournal) async throws -> Duration {
    let writer = JournalWriter(journal: journal)
    let clock = ContinuousClock()
    let start = clock.now
    let system = try await DurableSystem.restore(
      id: history.id, writer: writer, initial: 0, reduce: Tallies.reduce, snapshots: .every(UInt64(snapshotInterval)))
    let elapsed = start.duration(to: clock.now)
    check(system.state == Tallies.finalState(count: history.eventCount), "D5 restored \(system.state)")
    system.stop()
    return elapsed
  }

  /// Reads the latest snapshot and the events after it (or, with
  /// `wholeHistory`, every event from the first) and folds them.
  static func raw(_ history: History, pool: DatabasePool, wholeHistory: Bool = false) async throws -> Duration {
    let id = history.id
    let clock = ContinuousClock()
    let start = clock.now
    let state = try await pool.read { database -> Int in
      let decoder = JSONDecoder()
      var state = 0
      var after: Int64 = 0
      if !wholeHistory,
        let row = try Row.fetchOne(
          database, sql: "SELECT sequence, payload FROM journal_snapshots WHERE system_id = ?", arguments: [id])
      {
        after = row[0]
        state = try decoder.decode(DurableEnvelope<Int>.self, from: row[1] as Data).value
      }
      let rows = try Row.fetchCursor(
        database, sql: "SELECT payload FROM journal_events WHERE system_id = ? AND sequence > ? ORDER BY sequence",
        arguments: [id, after])
      while let row = try rows.next() {
        Tallies.reduce(&state, try decoder.decode(DurableEnvelope<Tally>.self, from: row[0] as Data).value)
      }
      return state
    }
    let elapsed = start.duration(to: clock.now)
    check(state == Tallies.finalState(count: history.eventCount), "D5 raw fold gave \(state)")
    return elapsed
  }

  static func run(rounds: Int) async throws {
    let scratch = ScratchDirectory("D5")
    defer { scratch.remove() }
    let journal = try SQLiteJournal(path: scratch.path("journal.sqlite"))
    for history in histories { try await write(history, to: journal) }
    let pool = try DatabasePool(path: scratch.path("journal.sqlite"))
    var restored: [String: [Double]] = [:]
    var rawTimes: [String: [Double]] = [:]
    var whole: [Double] = []
    for _ in 0..<3 {  // warm-up
      for history in histories {
        _ = try await restore(history, journal: journal)
        _ = try await raw(history, pool: pool)
      }
    }
    for _ in 0..<rounds {
      for history in histories {
        restored[history.id, default: []].append(nanoseconds(try await restore(history, journal: journal)))
        rawTimes[history.id, default: []].append(nanoseconds(try await raw(history, pool: pool)))
      }
      whole.append(nanoseconds(try await raw(histories[0], pool: pool, wholeHistory: true)))
    }
    var medians: [String: Double] = [:]
    for history in histories {
      let restoreMedian = median(restored[history.id]!) / 1000
      let rawMedian = median(rawTimes[history.id]!) / 1000
      medians[history.id] = restoreMedian
      print(
        "\(history.id) \(history.eventCount) events, a snapshot every \(snapshotInterval):"
          + " restore \(format(restoreMedian, digits: 1)) µs (min \(format(restored[history.id]!.min()! / 1000, digits: 1))),"
          + " raw read and fold of the same rows \(format(rawMedian, digits: 1)) µs; medians of \(rounds)")
      printResult(history.id, format(restoreMedian, digits: 1), format(restoreMedian / rawMedian))
    }
    let wholeMedian = median(whole) / 1000
    print(
      "D5 reference: the raw read and fold of all 10,000 events, no snapshot: \(format(wholeMedian, digits: 1)) µs"
        + " (the restore costs \(format(medians["D5"]! / wholeMedian, digits: 4)) times that)")
    print(
      "D5 flat: restore of 100,000 events \(format(medians["D5-100k"]! / medians["D5"]!)) times that of 10,000;"
        + " 100,999 \(format(medians["D5-100k+999"]! / medians["D5+999"]!)) times 10,999")
    printResult("D5-flat", format(medians["D5-100k"]! / medians["D5"]!), "-")
    printResult("D5+999-flat", format(medians["D5-100k+999"]! / medians["D5+999"]!), "-")
    try pool.close()
  }
}
