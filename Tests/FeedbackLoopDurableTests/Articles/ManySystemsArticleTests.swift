import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopDurableUI
import FeedbackLoopTesting
import FeedbackLoopUI
import Foundation
import Testing

/// The code of the article's "Many systems" and "In an app" sections,
/// compiled (MakingASystemDurableArticleTests checks the article shows it).
extension MakingDurable {
  static func manySystems(journal: some Journal, bank: Bank) async throws -> DurableHost<Account, AccountEvent> {
    let writer = JournalWriter(journal: journal)
    let accounts = DurableHost<Account, AccountEvent>(passivateAfter: .seconds(300), maxLoaded: 10_000) { id in
      try await DurableSystem.restore(
        id: id, writer: writer, initial: Account(), reduce: reduce, feedbacks: [payouts(bank: bank)])
    }
    let sweeper = Task { await accounts.run() }  // passivates what was idle 5 minutes

    try await accounts.sendDurably(.deposited(50), to: "account-7")
    sweeper.cancel()
    await sweeper.value
    return accounts
  }

  typealias Downloads = DownloadsScreen.State
  typealias DownloadsEvent = DownloadsScreen.Event

  struct DownloadsApp {
    let journal: InMemoryJournal
    let api: Locked<[String]>
    let clock: TestClock

    @MainActor
    func openDownloads() async throws -> Store<Downloads, DownloadsEvent> {
      let downloads = try await DurableSystem.restore(
        id: "downloads", writer: JournalWriter(journal: journal),
        initial: Downloads(), reduce: Downloads.reduce, feedbacks: Downloads.feedbacks(api: api, clock: clock),
        isolation: .mainActor)
      return Store(downloads)
    }
  }
}

extension DownloadsScreen.State {
  static func reduce(_ state: inout Self, _ event: DownloadsScreen.Event) { DownloadsScreen.reduce(&state, event) }

  static func feedbacks(api: Locked<[String]>, clock: TestClock) -> [Feedback<Self, DownloadsScreen.Event>] {
    [DownloadsScreen.fetches(clock: clock, requests: api), DownloadsScreen.reminders(clock: clock)]
  }
}

@Suite("Making a system durable: many systems, and an app (the article)", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct ManySystemsArticleTests {
  @Test("The article's host restores the account it sends to, and stops with its events stored")
  func articleHost() async throws {
    let journal = InMemoryJournal()
    let bank = MakingDurable.Bank()
    let accounts = try await MakingDurable.manySystems(journal: journal, bank: bank)
    #expect(try await accounts.system("account-7").state.balance == 50)
    await accounts.stop()
    #expect(try await journal.load("account-7")?.events.count == 1)
  }

  @Test("The article's app opens its downloads screen in a store over a durable system")
  @MainActor
  func articleApp() async throws {
    let journal = InMemoryJournal()
    let app = MakingDurable.DownloadsApp(journal: journal, api: Locked([]), clock: TestClock())
    let store = try await app.openDownloads()
    store.send(.open("a.pdf", now: .zero))
    #expect(store.fetching == "a.pdf")
    #expect(store.remindAt == .seconds(30))
    store.stop()
  }
}
