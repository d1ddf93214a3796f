import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopTesting
import Foundation
import Testing

/// The code of the article's sections "Effects resume" and "Time", compiled.
extension MakingDurable {
  static func keyedPayouts(bank: Bank) -> Feedback<Account, AccountEvent> {
    .query(\.pendingPayout, name: "payout") { amount in
      .task {
        // "account-7/2/payout": the same after a restart, another for the next payout.
        try await bank.pay(amount, idempotencyKey: DurableEffect.key?.description)
        return .paidOut(amount)
      }
    }
  }

  struct Checkout: Codable, Sendable, Equatable {
    var paymentDeadline: WallClock.Instant?
    var timedOut = false
  }

  enum CheckoutEvent: Codable, Sendable, Equatable {
    case started(at: WallClock.Instant)
    case paid
    case paymentTimedOut
  }

  static func reduceCheckout(_ checkout: inout Checkout, _ event: CheckoutEvent) {
    switch event {
    case .started(let now): checkout.paymentDeadline = now.advanced(by: .seconds(15 * 60))
    case .paid: checkout.paymentDeadline = nil
    case .paymentTimedOut:
      checkout.paymentDeadline = nil
      checkout.timedOut = true
    }
  }

  static let paymentTimeout = Feedback<Checkout, CheckoutEvent>.deadline(\.paymentDeadline, name: "timeout") { _ in
    .paymentTimedOut
  }

  static func openCheckout(writer: JournalWriter) async throws -> DurableSystem<Checkout, CheckoutEvent> {
    let clock = WallClock()
    let checkout = try await DurableSystem.restore(
      id: "checkout-9", writer: writer, initial: Checkout(), reduce: reduceCheckout,
      feedbacks: [paymentTimeout], environment: SystemEnvironment(clock: clock))
    checkout.send(.started(at: clock.now))
    return checkout
  }
}

extension MakingDurable.Bank {
  /// The article's bank, which also takes an idempotency key: it pays a
  /// key once.
  func pay(_ amount: Int, idempotencyKey: String?) async throws {
    paidKeys.withLock { keys in
      guard let idempotencyKey, !keys.contains(idempotencyKey) else { return }
      keys.append(idempotencyKey)
      paid.withLock { $0.append(amount) }
    }
  }

  private var paidKeys: Locked<[String]> { MakingDurable.paidKeys }
}

extension MakingDurable {
  static let paidKeys = Locked<[String]>([])
}

@Suite("Making a system durable: effects and time (the article)", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct EffectsAndTimeArticleTests {
  @Test("G16 the article's keyed payout carries the key of the state that asked for it")
  func keyedPayout() async throws {
    let bank = MakingDurable.Bank()
    let account = try await DurableSystem.restore(
      id: "account-7", writer: JournalWriter(journal: InMemoryJournal()), initial: MakingDurable.Account(),
      reduce: MakingDurable.reduce, feedbacks: [MakingDurable.keyedPayouts(bank: bank)])
    try await account.sendDurably(.deposited(50))
    try await account.sendDurably(.payoutRequested(20))
    for await state in account.states(buffering: .all) where state.pendingPayout == nil { break }
    try await account.waitForCommit()
    #expect(bank.paid.withLock { $0 } == [20])
    #expect(MakingDurable.paidKeys.withLock { $0 }.contains("account-7/2/payout"))
    account.stop()
  }

  @Test("the article's checkout keeps its payment deadline, 15 minutes of wall time after it started")
  func checkoutKeepsItsDeadline() async throws {
    let before = WallClock().now
    let checkout = try await MakingDurable.openCheckout(writer: JournalWriter(journal: InMemoryJournal()))
    let deadline = try #require(checkout.state.paymentDeadline)
    #expect(before.advanced(by: .seconds(15 * 60)) <= deadline)
    #expect(deadline <= WallClock().now.advanced(by: .seconds(15 * 60)))
    try await checkout.waitForCommit()
    checkout.stop()
  }
}
