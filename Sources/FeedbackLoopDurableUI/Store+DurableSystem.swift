import FeedbackLoop
import FeedbackLoopDurable
import FeedbackLoopUI

extension Store where State: Codable & Sendable, Event: Codable & Sendable {
  /// Holds a durable system in a store: a screen whose state survives the
  /// app being killed.
  ///
  /// The store is the usual one (its state, members, projections and
  /// scopes); its events go through the durable system, so that each is
  /// written to the journal, and its stop stops the durable system. Restore
  /// the system with isolation `SystemIsolation.mainActor`: the store checks
  /// it on every state, as it does for any system.
  ///
  /// ```swift
  /// @MainActor
  /// func openDownloads(journal: some Journal, api: API) async throws -> Store<Downloads, DownloadsEvent> {
  ///   let downloads = try await DurableSystem.restore(
  ///     id: "downloads", writer: JournalWriter(journal: journal),
  ///     initial: Downloads(), reduce: Downloads.reduce, feedbacks: Downloads.feedbacks(api: api),
  ///     isolation: .mainActor)
  ///   return Store(downloads)  // the screen the app had when it was killed
  /// }
  /// ```
  ///
  /// The store keeps the durable system running while it lives; releasing
  /// it (and every store scoped from it) stops the system, whose events
  /// reduced before are still written.
  @inlinable
  public convenience init(_ durable: DurableSystem<State, Event>) {
    self.init(
      durable.system, forward: { event in durable.send(event) }, stop: { durable.stop() }, owner: durable)
  }
}
