import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopDurableTesting
import Foundation
import Testing

/// The article's "Versions" code, compiled.
extension MakingDurable {
  enum V1 {
    struct Account: Codable {
      var total: Int
      var pendingPayout: Int?
    }

    enum AccountEvent: Codable {
      case deposited(Int)
      case payout(Int, done: Bool)
    }
  }

  static let migrations = DurableMigrations<Account, AccountEvent>()
    .state(from: 1, as: V1.Account.self) { old in
      Account(balance: old.total, pendingPayout: old.pendingPayout)
    }
    .event(from: 1, as: V1.AccountEvent.self) { old -> AccountEvent in
      switch old {
      case .deposited(let amount): .deposited(amount)
      case .payout(let amount, done: false): .payoutRequested(amount)
      case .payout(let amount, done: true): .paidOut(amount)
      }
    }
}

@Suite("Making a system durable: versions (the article)", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct MakingASystemDurableVersionsTests {
  /// What version 1 of the article's app stored for account-7: a deposit of
  /// 50 and a payout of 20 requested, then paid, with a snapshot after the
  /// request.
  private func version1Journal() async throws -> InMemoryJournal {
    let journal = InMemoryJournal()
    let codec = JSONDurableCodec()
    func stored(_ value: some Encodable) throws -> Data {
      try codec.encode(StoredV1(value: value))
    }
    _ = try await journal.append([
      JournalBatch(
        systemID: "account-7", expectedSequence: 0,
        events: [
          try stored(MakingDurable.V1.AccountEvent.deposited(50)),
          try stored(MakingDurable.V1.AccountEvent.payout(20, done: false)),
        ],
        snapshot: try stored(MakingDurable.V1.Account(total: 50, pendingPayout: 20))),
      JournalBatch(
        systemID: "account-7", expectedSequence: 2,
        events: [try stored(MakingDurable.V1.AccountEvent.payout(20, done: true))]),
    ])
    return journal
  }

  private struct StoredV1<Value: Encodable>: Encodable {
    var version = 1
    var value: Value
  }

  @Test("G16 the article's version 2 restores what version 1 stored, and the replay check finds it clean")
  func articleMigrations() async throws {
    typealias Account = MakingDurable.Account
    let journal = try await version1Journal()
    let bank = MakingDurable.Bank()
    let reduce: @Sendable (inout Account, MakingDurable.AccountEvent) -> Void = MakingDurable.reduce
    func payouts(bank: MakingDurable.Bank) -> Feedback<Account, MakingDurable.AccountEvent> {
      MakingDurable.payouts(bank: bank)
    }
    let migrations = MakingDurable.migrations
    let writer = JournalWriter(journal: journal)
    let account = try await DurableSystem.restore(
      id: "account-7", writer: writer,
      initial: Account(), reduce: reduce, feedbacks: [payouts(bank: bank)],
      schemaVersion: 2, migrations: migrations)
    #expect(account.state == Account(balance: 30))
    #expect(bank.paid.withLock { $0 }.isEmpty)
    account.stop()

    let report = try await JournalReplay.check(
      journal, initial: Account(), reduce: reduce,
      schemaVersion: 2, migrations: migrations)
    #expect(report.isClean, "\(report)")
    #expect(report.snapshotsCompared == 1)
  }
}
