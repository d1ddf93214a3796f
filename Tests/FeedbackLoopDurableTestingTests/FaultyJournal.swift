import FeedbackLoopDurable
import Foundation

/// A small journal written for these tests alone: right when it has no
/// fault, and breaking exactly one rule of the contract with one, so that
/// each conformance check is seen to fail on the journal that breaks its rule.
actor FaultyJournal: Journal {
  enum Fault: String, CaseIterable, Sendable, CustomStringConvertible {
    case ignoresExpectation
    case refusesTheWholeCall
    case reportsTheExpectationAsStored
    case loadsNewestFirst
    case keepsTheFirstSnapshot
    case loadsEventsBeforeTheSnapshot
    case dropsSnapshotOnlyBatches
    case truncatesLargePayloads
    case dropsEmptyEvents
    case listsInInsertionOrder
    case deleteKeepsTheSnapshot
    case loadsEmptyHistoryForUnknownIDs
    case ignoresEpochs
    case claimKeepsTheEpoch
    case deleteForgetsTheEpoch
    case listsClaimedIDs

    var description: String { rawValue }
  }

  private struct Stored {
    var events: [JournalRecord] = []
    var snapshot: JournalRecord?
    var last: UInt64 = 0
  }

  private let fault: Fault?
  private var systems: [String: Stored] = [:]
  private var insertionOrder: [String] = []
  private var epochs: [String: UInt64] = [:]

  init(fault: Fault? = nil) {
    self.fault = fault
  }

  func append(_ batches: [JournalBatch]) -> [JournalAppendResult] {
    var results: [JournalAppendResult] = []
    var refusedAny = false
    var staged = systems
    var stagedOrder = insertionOrder
    for batch in batches {
      var stored = staged[batch.systemID] ?? Stored()
      let epoch = epochs[batch.systemID] ?? 0
      if (batch.expectedSequence != stored.last && fault != .ignoresExpectation)
        || (batch.epoch != epoch && fault != .ignoresEpochs)
      {
        let reported = fault == .reportsTheExpectationAsStored ? batch.expectedSequence : stored.last
        results.append(
          .refused(
            SequenceConflict(
              systemID: batch.systemID, expectedSequence: batch.expectedSequence, storedSequence: reported,
              writerEpoch: batch.epoch, storedEpoch: epoch)))
        refusedAny = true
        continue
      }
      for event in batch.events {
        if event.isEmpty && fault == .dropsEmptyEvents { continue }
        stored.last += 1
        let bytes = fault == .truncatesLargePayloads ? event.prefix(1_000_000) : event
        stored.events.append(JournalRecord(sequence: stored.last, payload: Data(bytes)))
      }
      if let snapshot = batch.snapshot,
        !(batch.events.isEmpty && fault == .dropsSnapshotOnlyBatches),
        !(stored.snapshot != nil && fault == .keepsTheFirstSnapshot)
      {
        stored.snapshot = JournalRecord(sequence: stored.last, payload: snapshot)
      }
      if staged[batch.systemID] == nil { stagedOrder.append(batch.systemID) }
      staged[batch.systemID] = stored
      results.append(.appended(through: stored.last))
    }
    if refusedAny && fault == .refusesTheWholeCall {
      return batches.map {
        .refused(
          SequenceConflict(
            systemID: $0.systemID, expectedSequence: $0.expectedSequence,
            storedSequence: systems[$0.systemID]?.last ?? 0, writerEpoch: $0.epoch,
            storedEpoch: epochs[$0.systemID] ?? 0))
      }
    }
    systems = staged
    insertionOrder = stagedOrder
    return results
  }

  func claim(_ systemID: String) -> JournalClaim {
    if fault != .claimKeepsTheEpoch || epochs[systemID] == nil { epochs[systemID, default: 0] += 1 }
    if fault == .listsClaimedIDs, systems[systemID] == nil {
      systems[systemID] = Stored()
      insertionOrder.append(systemID)
    }
    return JournalClaim(epoch: epochs[systemID] ?? 0, history: load(systemID))
  }

  func load(_ systemID: String) -> JournalHistory? {
    guard let stored = systems[systemID] else {
      return fault == .loadsEmptyHistoryForUnknownIDs ? JournalHistory(snapshot: nil, events: []) : nil
    }
    let after = stored.snapshot?.sequence ?? 0
    var events =
      fault == .loadsEventsBeforeTheSnapshot ? stored.events : stored.events.filter { $0.sequence > after }
    if fault == .loadsNewestFirst { events.reverse() }
    return JournalHistory(snapshot: stored.snapshot, events: events)
  }

  func systemIDs(after id: String?, limit: Int) -> [String] {
    let ordered =
      fault == .listsInInsertionOrder
      ? insertionOrder.filter { systems[$0] != nil }
      : systems.keys.sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
    let start =
      id.map { id in ordered.firstIndex { id.utf8.lexicographicallyPrecedes($0.utf8) } ?? ordered.endIndex } ?? 0
    return Array(ordered[start...].prefix(limit))
  }

  func delete(_ systemID: String) {
    if fault == .deleteKeepsTheSnapshot, let snapshot = systems[systemID]?.snapshot {
      systems[systemID] = Stored(events: [], snapshot: snapshot, last: 0)
      return
    }
    systems[systemID] = nil
    insertionOrder.removeAll { $0 == systemID }
    if fault == .deleteForgetsTheEpoch { epochs[systemID] = nil }
  }
}
