import FeedbackLoop
import Foundation

/// A ``Journal`` held in memory: the reference backend, for tests and
/// previews. What it stores is lost with the process.
///
/// It keeps every rule of ``Journal``: each call to ``append(_:)`` is one
/// transaction (all of its batches are stored, or none when it throws), a
/// batch whose epoch or expected sequence is stale is refused, ``claim(_:)``
/// moves the id's epoch on, ``load(_:)`` gives the latest snapshot and the
/// events after it.
///
/// It keeps every event, those before the latest snapshot too
/// (``FullHistoryJournal``), so that a replay check compares its snapshots.
///
/// Tests make it fail with ``failNextAppend(with:)`` (one call) or
/// ``failAppends(with:)`` (every call until ``stopFailing()``): a failing
/// call throws and stores nothing, as a disk that refuses a write would.
///
/// ```swift
/// let journal = InMemoryJournal()
/// journal.failNextAppend()
/// _ = try? await journal.append([batch])  // throws InMemoryJournal.InjectedFailure
/// let results = try await journal.append([batch])  // [.appended(through: 1)]
/// ```
public final class InMemoryJournal: FullHistoryJournal {
  /// The error a failing append throws unless the test gives its own.
  public struct InjectedFailure: Error, Sendable, Equatable, CustomStringConvertible {
    public init() {}
    public var description: String { "The in-memory journal was told to fail this append." }
  }

  private struct Stored {
    /// Every event appended, in order: `events[i]` has sequence `i + 1`.
    var events: [Data] = []
    var snapshot: JournalRecord?
    var lastSequence: UInt64 { UInt64(events.count) }
  }

  private enum Fault {
    case none
    case next(any Error)
    case every(any Error)
  }

  private struct Contents {
    var systems: [String: Stored] = [:]
    /// Apart from `systems`: an id claimed with nothing stored, and a
    /// deleted one, keep their epoch.
    var epochs: [String: UInt64] = [:]
    var fault: Fault = .none
  }

  private let contents = Locked(Contents())

  /// An empty journal.
  public init() {}

  public func append(_ batches: [JournalBatch]) async throws -> [JournalAppendResult] {
    try contents.withLock { contents in
      switch contents.fault {
      case .none: break
      case .next(let error):
        contents.fault = .none
        throw error
      case .every(let error): throw error
      }
      // Every batch is checked and applied to a copy of the systems it
      // touches first, so that the call is one transaction even if a later
      // version of this type throws half-way. (A copy of every system made
      // each append cost as much as the journal held: a host's test of
      // 100,000 systems spent seconds in it.)
      var changed: [String: Stored] = [:]
      var results: [JournalAppendResult] = []
      results.reserveCapacity(batches.count)
      for batch in batches {
        var stored = changed[batch.systemID] ?? contents.systems[batch.systemID] ?? Stored()
        let epoch = contents.epochs[batch.systemID] ?? 0
        guard stored.lastSequence == batch.expectedSequence, epoch == batch.epoch else {
          results.append(
            .refused(
              SequenceConflict(
                systemID: batch.systemID, expectedSequence: batch.expectedSequence,
                storedSequence: stored.lastSequence, writerEpoch: batch.epoch, storedEpoch: epoch)))
          continue
        }
        stored.events.append(contentsOf: batch.events)
        if let snapshot = batch.snapshot {
          stored.snapshot = JournalRecord(sequence: stored.lastSequence, payload: snapshot)
        }
        if !stored.events.isEmpty || stored.snapshot != nil {
          changed[batch.systemID] = stored
        }
        results.append(.appended(through: stored.lastSequence))
      }
      contents.systems.merge(changed) { _, new in new }
      return results
    }
  }

  public func claim(_ systemID: String) async throws -> JournalClaim {
    contents.withLock { contents in
      let epoch = (contents.epochs[systemID] ?? 0) + 1
      contents.epochs[systemID] = epoch
      return JournalClaim(epoch: epoch, history: Self.history(contents.systems[systemID]))
    }
  }

  public func load(_ systemID: String) async throws -> JournalHistory? {
    contents.withLock { contents in Self.history(contents.systems[systemID]) }
  }

  private static func history(_ stored: Stored?) -> JournalHistory? {
    guard let stored else { return nil }
    let after = Int(stored.snapshot?.sequence ?? 0)
    let events = stored.events[after...].enumerated().map { offset, payload in
      JournalRecord(sequence: UInt64(after + offset + 1), payload: payload)
    }
    return JournalHistory(snapshot: stored.snapshot, events: events)
  }

  public func events(of systemID: String, after sequence: UInt64, limit: Int) async throws -> [JournalRecord] {
    guard limit > 0 else { return [] }
    return contents.withLock { contents in
      guard let events = contents.systems[systemID]?.events, sequence < UInt64(events.count) else { return [] }
      let start = Int(sequence)
      return events[start..<(start + min(limit, events.count - start))].enumerated().map { offset, payload in
        JournalRecord(sequence: UInt64(start + offset + 1), payload: payload)
      }
    }
  }

  public func latestSnapshot(of systemID: String) async throws -> JournalRecord? {
    contents.withLock { $0.systems[systemID]?.snapshot }
  }

  public func systemIDs(after id: String?, limit: Int) async throws -> [String] {
    guard limit > 0 else { return [] }
    return contents.withLock { contents in
      let sorted = contents.systems.keys.sorted()
      let start = id.map { id in sorted.firstIndex { $0 > id } ?? sorted.endIndex } ?? sorted.startIndex
      return Array(sorted[start...].prefix(limit))
    }
  }

  public func delete(_ systemID: String) async throws {
    // The epoch stays: a claim after the delete moves on from it.
    contents.withLock { contents in _ = contents.systems.removeValue(forKey: systemID) }
  }

  // MARK: - Faults, for tests

  /// Makes the next call to ``append(_:)`` throw `error` and store nothing;
  /// the calls after it succeed again.
  public func failNextAppend(with error: any Error = InjectedFailure()) {
    contents.withLock { $0.fault = .next(error) }
  }

  /// Makes every call to ``append(_:)`` throw `error` and store nothing,
  /// until ``stopFailing()``.
  public func failAppends(with error: any Error = InjectedFailure()) {
    contents.withLock { $0.fault = .every(error) }
  }

  /// Ends a fault set by ``failNextAppend(with:)`` or ``failAppends(with:)``.
  public func stopFailing() {
    contents.withLock { $0.fault = .none }
  }
}
