import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Logging
import Testing

/// The article's code, compiled.
enum MakingDurable {
  struct Account: Codable, Sendable, Equatable {
    var balance = 0
    var pendingPayout: Int?
  }

  enum AccountEvent: Codable, Sendable, Equatable {
    case deposited(Int)
    case payoutRequested(Int)
    case paidOut(Int)
  }

  static func reduce(_ account: inout Account, _ event: AccountEvent) {
    switch event {
    case .deposited(let amount): account.balance += amount
    case .payoutRequested(let amount): account.pendingPayout = amount
    case .paidOut(let amount):
      account.balance -= amount
      account.pendingPayout = nil
    }
  }

  /// A bank that records what it pays.
  struct Bank: Sendable {
    let paid = Locked<[Int]>([])
    func pay(_ amount: Int) async throws { paid.withLock { $0.append(amount) } }
  }

  static func payouts(bank: Bank) -> Feedback<Account, AccountEvent> {
    .query(\.pendingPayout) { amount in
      .task {
        try await bank.pay(amount)
        return .paidOut(amount)
      }
    }
  }
}

@Suite("Making a system durable (the article)", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct MakingASystemDurableArticleTests {
  @Test("the article shows the code these tests compile, block by block")
  func articleShowsThisCode() throws {
    let article = try ArticleCode(article: "Sources/FeedbackLoopDurable/Documentation.docc/MakingASystemDurable.md")
    #expect(article.blocks.count == 13)
    let missing = try article.blocksMissing(
      fromAnyOf: [
        "Tests/FeedbackLoopDurableTests/Articles/MakingASystemDurableArticleTests.swift",
        "Tests/FeedbackLoopDurableTests/Articles/EffectsAndTimeArticleTests.swift",
        "Tests/FeedbackLoopDurableTests/Articles/MakingASystemDurableVersionsTests.swift",
        "Tests/FeedbackLoopDurableTests/Articles/ManySystemsArticleTests.swift",
      ],
      namespace: "MakingDurable")
    #expect(missing.isEmpty, "blocks of the article that no test compiles:\n\(missing.joined(separator: "\n---\n"))")
  }

  @Test("G16 the article's account pays its payout once stored, and a second owner is refused")
  func articleAccount() async throws {
    typealias Account = MakingDurable.Account
    let journal = InMemoryJournal()
    let bank = MakingDurable.Bank()
    let reduce: @Sendable (inout Account, MakingDurable.AccountEvent) -> Void = MakingDurable.reduce
    func payouts(bank: MakingDurable.Bank) -> Feedback<Account, MakingDurable.AccountEvent> {
      MakingDurable.payouts(bank: bank)
    }
    let writer = JournalWriter(journal: journal)
    let account = try await DurableSystem.restore(
      id: "account-7", writer: writer,
      initial: Account(), reduce: reduce, feedbacks: [payouts(bank: bank)],
      snapshots: .every(100))
    account.send(.deposited(50))  // reduced now, stored soon
    try await account.sendDurably(.payoutRequested(20))  // stored: it survives a crash
    for await state in account.states(buffering: .all) where state.pendingPayout == nil { break }
    try await account.waitForCommit()
    #expect(bank.paid.withLock { $0 } == [20])
    #expect(account.state == Account(balance: 30))

    account.stop()
  }

  @Test("G17 the article's second owner of account-7 is refused, and logs why")
  func articleSecondOwner() async throws {
    typealias Account = MakingDurable.Account
    let journal = InMemoryJournal()
    let reduce: @Sendable (inout Account, MakingDurable.AccountEvent) -> Void = MakingDurable.reduce
    let recorder = LogRecorder()
    let log = recorder.logger
    let account = try await DurableSystem.restore(
      id: "account-7", writer: JournalWriter(journal: journal), initial: Account(), reduce: reduce,
      environment: SystemEnvironment(logger: log))
    // Another process restores account-7: it owns it from now on.
    let first = try await DurableSystem.restore(
      id: "account-7", writer: JournalWriter(journal: journal), initial: Account(), reduce: reduce)
    try await first.sendDurably(.deposited(1))
    do {
      try await account.sendDurably(.deposited(5))
    } catch DurableSystemError.refusedByJournal(let conflict) {
      log.error("\(conflict)")  // another process owns account-7
    }
    #expect(recorder.messages.filter { $0.contains("another owner") }.count == 2)
    #expect(account.isStopped)
    first.stop()
  }
}
