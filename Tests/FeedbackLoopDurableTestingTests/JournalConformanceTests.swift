import FeedbackLoopDurable
import FeedbackLoopDurableTesting
import Testing

@Suite("Journal conformance suite")
struct JournalConformanceTests {
  @Test("every check passes on a journal that keeps every rule", arguments: JournalConformance.checks)
  func passesOnACorrectJournal(_ check: JournalCheck) async throws {
    try await check.run { FaultyJournal() }
  }

  @Test(
    "each check fails, naming its rule, on a journal that breaks that rule",
    arguments: [
      (FaultyJournal.Fault.ignoresExpectation, "conditional append"),
      (.ignoresExpectation, "concurrent writers"),
      (.ignoresExpectation, "two batches of one system in one call"),
      (.refusesTheWholeCall, "conditional append"),
      (.reportsTheExpectationAsStored, "conditional append"),
      (.loadsNewestFirst, "ordering"),
      (.keepsTheFirstSnapshot, "snapshots"),
      (.loadsEventsBeforeTheSnapshot, "snapshots"),
      (.dropsSnapshotOnlyBatches, "snapshot-only batch"),
      (.truncatesLargePayloads, "large payloads"),
      (.dropsEmptyEvents, "empty payloads"),
      (.listsInInsertionOrder, "many systems and paging"),
      (.deleteKeepsTheSnapshot, "delete"),
      (.loadsEmptyHistoryForUnknownIDs, "unknown id"),
      (.ignoresEpochs, "stale epoch"),
      (.ignoresEpochs, "two claimers"),
      (.ignoresEpochs, "concurrent claim and append"),
      (.claimKeepsTheEpoch, "two claimers"),
      (.deleteForgetsTheEpoch, "claim after delete"),
      (.listsClaimedIDs, "claim after delete"),
    ])
  func failsOnAJournalThatBreaksItsRule(_ fault: FaultyJournal.Fault, _ checkName: String) async throws {
    let check = try #require(JournalConformance.checks.first { $0.name == checkName })
    let failure = await #expect(throws: JournalConformanceFailure.self) {
      try await check.run { FaultyJournal(fault: fault) }
    }
    #expect(failure?.check == checkName)
    #expect(failure?.rule == check.rule)
    #expect(failure?.description.contains(check.rule) == true)
  }

  @Test("every fault of the test journal is caught by some check")
  func everyFaultIsCaught() async {
    for fault in FaultyJournal.Fault.allCases {
      var caught = false
      for check in JournalConformance.checks {
        do { try await check.run { FaultyJournal(fault: fault) } } catch is JournalConformanceFailure {
          caught = true
        } catch { Issue.record("\(check.name) threw \(error) on \(fault)") }
      }
      #expect(caught, "no check caught \(fault)")
    }
  }

  @Test("the checks' names are unique, so that each test names one check")
  func uniqueNames() {
    let names = JournalConformance.checks.map(\.name)
    #expect(Set(names).count == names.count)
  }
}
