/// A download manager whose state survives a crash: a durable system on a
/// SQLite journal, killed with SIGKILL and restarted, goes on where it was.
///
/// Each file is fetched chunk by chunk from a ``DownloadServer``. The server
/// drops some connections; a dropped chunk waits for a retry deadline kept
/// in the state (a `WallClock.Instant`), with a backoff that doubles, and a
/// timer (`Feedback.deadline`) fires it. Every chunk request carries its
/// effect's idempotency key (`DurableEffect.key`): a request that a crash
/// interrupted after the server served it, and that the restored system
/// sends again, is answered from the server's table of served requests,
/// not downloaded twice.
///
/// | feedback | starts | cancels |
/// | --- | --- | --- |
/// | fetch | one request per file that is downloading, for its next chunk | when the chunk arrives or fails |
/// | retry | a wait until the earliest retry deadline | when no file waits to retry |
///
/// Both are derived from the state, so a restored state starts again what
/// it needs: the chunks in flight at the crash, and the retry timers, at
/// their original deadlines.
///
/// ```swift
/// let journal = try SQLiteJournal(path: directory + "/journal.sqlite")
/// let clock = WallClock()
/// let server = DownloadServer(
///   latency: .milliseconds(400), clock: clock, served: try ServedRequests(path: directory + "/served.log"))
/// let downloads = try await DurableSystem.restore(
///   id: "downloads", writer: JournalWriter(journal: journal), initial: DurableDownloads.State(),
///   reduce: DurableDownloads.reduce, feedbacks: DurableDownloads.feedbacks(server: server, clock: clock),
///   environment: SystemEnvironment(clock: clock))
/// if downloads.state.files.isEmpty { downloads.send(.added(name: "atlas.iso", chunks: 5)) }
/// ```
public enum DurableDownloads {
  /// The id of the download manager's system in its journal.
  public static let systemID = "downloads"
}
