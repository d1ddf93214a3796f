// The crash test's writer: appends batches to a few systems of a SQLite
// journal in a loop and, after each `append` returns, prints what it
// acknowledged, flushed, so that a test that kills it with SIGKILL knows
// every sequence acknowledged before the kill:
//
//   journal-crash-writer PATH SEED
//
// prints "ready LAST..." once, then one line "ack SYSTEM THROUGH" per
// appended batch. Each event's payload is "SYSTEM:SEQUENCE:BATCHLAST", so
// that the test sees which batch an event belongs to (a partial batch
// shows), and each snapshot's is "snapshot:SYSTEM:SEQUENCE".
import FeedbackLoopDurable
import FeedbackLoopSQLite
import Foundation

let arguments = CommandLine.arguments
guard arguments.count == 3, let seed = UInt64(arguments[2]) else {
  FileHandle.standardError.write(Data("usage: journal-crash-writer PATH SEED\n".utf8))
  exit(2)
}
let systems = (0..<4).map { "crash-\($0)" }

struct SplitMix64: RandomNumberGenerator {
  var state: UInt64
  mutating func next() -> UInt64 {
    state &+= 0x9E37_79B9_7F4A_7C15
    var z = state
    z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
    z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
    return z ^ (z >> 31)
  }
}

func say(_ line: String) {
  FileHandle.standardOutput.write(Data((line + "\n").utf8))
}

do {
  let journal = try SQLiteJournal(path: arguments[1])
  var last: [String: UInt64] = [:]
  for system in systems {
    last[system] = try await journal.load(system)?.lastSequence ?? 0
  }
  say("ready " + systems.map { "\($0)=\(last[$0]!)" }.joined(separator: " "))
  var random = SplitMix64(state: seed)
  while true {
    // One or two systems per call, one to five events each, a snapshot now
    // and then; payloads of up to a few kilobytes, so that a batch spans
    // pages and a kill can land in the middle of its writes.
    let chosen = Array(systems.shuffled(using: &random).prefix(Int.random(in: 1...2, using: &random)))
    let batches = chosen.map { system -> JournalBatch in
      let expected = last[system]!
      let count = Int.random(in: 1...5, using: &random)
      let through = expected + UInt64(count)
      let padding = String(repeating: "x", count: Int.random(in: 0...3_000, using: &random))
      let events = (1...count).map { Data("\(system):\(expected + UInt64($0)):\(through):\(padding)".utf8) }
      let snapshot = Int.random(in: 0..<8, using: &random) == 0 ? Data("snapshot:\(system):\(through)".utf8) : nil
      return JournalBatch(systemID: system, expectedSequence: expected, events: events, snapshot: snapshot)
    }
    let results = try await journal.append(batches)
    for (batch, result) in zip(batches, results) {
      guard case .appended(let through) = result else {
        FileHandle.standardError.write(Data("refused: \(result)\n".utf8))
        exit(3)
      }
      last[batch.systemID] = through
      say("ack \(batch.systemID) \(through)")
    }
  }
} catch {
  FileHandle.standardError.write(Data("\(error)\n".utf8))
  exit(1)
}
