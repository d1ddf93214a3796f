/// The conformance suite of `Journal`: every rule of
/// the contract, as checks that any backend's tests run.
///
/// ```swift
/// @Test(arguments: JournalConformance.checks)
/// func conformance(_ check: JournalCheck) async throws {
///   try await check.run { InMemoryJournal() }
/// }
/// ```
public enum JournalConformance {
  /// Every check, each on journals of its own, in no order that matters.
  public static let checks: [JournalCheck] = [
    .conditionalAppend,
    .ordering,
    .twoBatchesOfOneSystem,
    .snapshots,
    .snapshotOnlyBatch,
    .largePayloads,
    .emptyPayloads,
    .manySystemsAndPaging,
    .delete,
    .concurrentWriters,
    .unknownSystem,
    .staleEpoch,
    .twoClaimers,
    .claimAfterDelete,
    .concurrentClaimAndAppend,
  ]
}
