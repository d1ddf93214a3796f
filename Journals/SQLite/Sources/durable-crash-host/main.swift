// The durable crash test's host on a SQLite journal (see CrashHost.swift):
//
//   durable-crash-host JOURNAL-PATH OPTIONS...
import FeedbackLoopSQLite

let arguments = CommandLine.arguments
guard arguments.count >= 2 else { fail("usage: durable-crash-host JOURNAL-PATH " + CrashHostOptions.usage) }
do {
  let journal = try SQLiteJournal(path: arguments[1])
  try await runCrashHost(journal: journal, options: .parse(arguments.dropFirst(2)))
} catch {
  fail("\(error)")
}
