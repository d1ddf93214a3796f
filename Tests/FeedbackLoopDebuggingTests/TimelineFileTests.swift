import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoopDebugging

@Suite(.runsLeftoverJobs) struct TimelineFileTests {
  let harness = Harness()

  func temporaryFile(_ name: String) -> URL {
    FileManager.default.temporaryDirectory.appendingPathComponent("h14-\(UUID().uuidString)-\(name).jsonl")
  }

  @Test("G13 the JSON Lines file holds every moment, and reads back equal to memory")
  func writesAndReads() throws {
    let url = temporaryFile("search")
    defer { try? FileManager.default.removeItem(at: url) }
    let file = try TimelineFileWriter<PagedSearch.State, PagedSearch.Event>(url: url)
    let recorder = Recorder(capacity: 100, file: file, clock: harness.clock)
    let system = harness.search(monitor: recorder.monitor)
    harness.recordTwoPages(system)
    system.stop()
    let summary = file.finish()
    #expect(summary == .init(written: 5, dropped: 0, unencodable: 0))
    let read = try TimelineFile<PagedSearch.State, PagedSearch.Event>(contentsOf: url)
    #expect(read.problems.isEmpty)
    #expect(read.moments == recorder.moments)
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    #expect(lines.count == 5)
  }

  @Test("G14 a writer that falls behind drops moments, counts them, and leaves a gap the reader reports")
  func dropsAreCounted() throws {
    let url = temporaryFile("drops")
    defer { try? FileManager.default.removeItem(at: url) }
    let file = try TimelineFileWriter<Int, Int>(url: url, bufferCapacity: 3, paused: true)
    let recorder = Recorder(capacity: 0, file: file)
    let system = System(initial: 0, reduceReturning: { $0 + $1 }, monitor: recorder.monitor)
    for _ in 1...9 { system.send(1) }
    system.stop()  // moments 0 to 9 closed: 10 for a buffer of 3
    #expect(recorder.fileDroppedCount == 7)
    file.resume()
    let summary = file.finish()
    #expect(summary.written == 3 && summary.dropped == 7)
    let read = try TimelineFile<Int, Int>(contentsOf: url)
    #expect(read.moments.map(\.sequence) == [0, 1, 2])
    #expect(read.problems == [TimelineProblem(line: 4, sequence: nil, kind: .gap(dropped: 7))])
    let report = Replay.check(read.moments, reduceReturning: { $0 + $1 })
    #expect(report.isIdentical && report.replayed == 2)
  }

  @Test(
    "G14 drops counted while the writer thread takes the buffer: every moment written or counted, each gap where its moments were"
  )
  func dropsRaceTheWriterThread() throws {
    let url = temporaryFile("racing-drops")
    defer { try? FileManager.default.removeItem(at: url) }
    // A small buffer that the writer thread keeps taking while the loop fills it and drops.
    let file = try TimelineFileWriter<Int, Int>(url: url, bufferCapacity: 8)
    let recorder = Recorder(capacity: 0, file: file)
    let system = System(initial: 0, reduceReturning: { $0 + $1 }, monitor: recorder.monitor)
    for _ in 1...20_000 { system.send(1) }
    system.stop()
    let summary = file.finish()
    #expect(summary.written + summary.dropped == 20_001)
    #expect(summary.dropped > 0)
    // Line by line: the moments missing before each moment are the drops
    // the gap lines since the moment before it report.
    let lines = try String(contentsOf: url, encoding: .utf8).split(separator: "\n")
    var expected: UInt64 = 0
    var gapsSinceLastMoment: UInt64 = 0
    var misplaced = 0
    var written: UInt64 = 0
    var dropped: UInt64 = 0
    for line in lines {
      let object = try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any] ?? [:]
      if let gap = object["dropped"] as? Int {
        gapsSinceLastMoment += UInt64(gap)
        dropped += UInt64(gap)
      } else if let sequence = object["sequence"] as? Int {
        if UInt64(sequence) - expected != gapsSinceLastMoment { misplaced += 1 }
        expected = UInt64(sequence) + 1
        gapsSinceLastMoment = 0
        written += 1
      }
    }
    #expect(misplaced == 0)
    #expect(written == summary.written && dropped == summary.dropped)
    #expect(expected + gapsSinceLastMoment == 20_001)
  }

  @Test("G14 a moment numbered UInt64.max that does not encode leaves a gap at the end, and the writer goes on")
  func unencodableLastSequenceNumber() throws {
    let url = temporaryFile("last-sequence")
    defer { try? FileManager.default.removeItem(at: url) }
    let file = try TimelineFileWriter<Double, Int>(url: url)
    file.append(Moment(sequence: .max - 1, state: 1))
    file.append(Moment(sequence: .max, event: 1, state: .nan))  // JSON holds no NaN
    file.append(Moment(sequence: 0, event: 1, state: 2))
    #expect(file.finish() == .init(written: 2, dropped: 0, unencodable: 1))
    let read = try TimelineFile<Double, Int>(contentsOf: url)
    #expect(read.moments.map(\.sequence) == [.max - 1, 0])
    #expect(read.problems == [TimelineProblem(line: 2, sequence: nil, kind: .gap(dropped: 1))])
  }

  @Test("a truncated or malformed line is reported with its line number, and the rest is read")
  func malformedLines() throws {
    let moments = (0...3).map { Moment<Int, Int>(sequence: UInt64($0), event: $0 == 0 ? nil : 1, state: $0) }
    let encoder = JSONEncoder()
    var lines = try moments.map { String(decoding: try encoder.encode($0), as: UTF8.self) }
    lines[1] = String(lines[1].prefix(12))  // cut mid-line, as a crash would leave it
    lines.insert("not json at all", at: 3)
    let read = TimelineFile<Int, Int>(data: Data(lines.joined(separator: "\n").utf8))
    #expect(read.moments.map(\.sequence) == [0, 2, 3])
    #expect(read.problems.map(\.line) == [2, 4])
    #expect(read.problems.allSatisfy { if case .malformed = $0.kind { true } else { false } })
    #expect(read.problems[0].description.hasPrefix("line 2: "))
  }

  @Test("a time out of range (huge, negative, not a number) is reported with its line number, and the rest is read")
  func timesOutOfRange() throws {
    let times = ["1e300", "-1e300", "-1", "9.3e18", "NaN", "Infinity", "-Infinity", "1e999", #""NaN""#]
    let lines =
      [#"{"sequence":0,"state":0,"time":0}"#]
      + times.enumerated().map { #"{"event":1,"sequence":\#($0.offset + 1),"state":1,"time":\#($0.element)}"# }
      + [#"{"event":1,"sequence":99,"state":2,"time":9.2e9}"#]
    let read = TimelineFile<Int, Int>(data: Data(lines.joined(separator: "\n").utf8))
    #expect(read.moments.map(\.sequence) == [0, 99])
    #expect(read.moments.last?.time == .seconds(9_200_000_000))
    #expect(read.problems.map(\.line) == Array(2...10))
    // A number out of range is named at its field; what JSON cannot hold spoils the line.
    for problem in read.problems.prefix(4) {
      if case .undecodable(let field, let reason) = problem.kind {
        #expect(field == "time" && reason.contains("seconds from 0"))
      } else {
        Issue.record("expected the time to be named, got \(problem)")
      }
    }
    #expect(read.problems[0].description.hasPrefix("line 2: moment 1: time does not decode"))
  }

  @Test("a State that no longer decodes names the moment and the field")
  func stateNoLongerDecodes() throws {
    let line0 = #"{"sequence":0,"state":{"query":"","results":[]}}"#
    let line1 = #"{"event":{"loadNextPage":{}},"sequence":1,"state":{"query":"swift","results":["a",7]}}"#
    let line2 = #"{"event":{"loadNextPage":{}},"sequence":2,"state":{"results":[]}}"#
    let read = TimelineFile<PagedSearch.State, PagedSearch.Event>(
      data: Data([line0, line1, line2].joined(separator: "\n").utf8))
    #expect(read.moments.map(\.sequence) == [0])
    #expect(read.problems.count == 2)
    guard read.problems.count == 2 else { return }
    #expect(read.problems[0].line == 2 && read.problems[0].sequence == 1)
    if case .undecodable(let field, _) = read.problems[0].kind {
      #expect(field == "state.results[1]")
    } else {
      Issue.record("expected an undecodable field, got \(read.problems[0])")
    }
    #expect(read.problems[1].sequence == 2)
    if case .undecodable(let field, _) = read.problems[1].kind {
      #expect(field == "state.query")
    } else {
      Issue.record("expected a missing field, got \(read.problems[1])")
    }
    #expect(read.problems[0].description.contains("moment 1"))
  }

  @Test(
    "times at the edges read back: -0, subnormals, 1e-300, a whole number, past Int64 nanoseconds, the last seconds below 2^63"
  )
  func timesAtTheEdges() throws {
    let times = [
      "-0.0", "5e-324", "1e-300", "4e-10", "6e-10", "7", "9223372036.854775807", "0.000000001", "9223372036854774784",
    ]
    let lines =
      [#"{"sequence":0,"state":0}"#]
      + times.enumerated().map { #"{"event":1,"sequence":\#($0.offset + 1),"state":1,"time":\#($0.element)}"# }
    let read = TimelineFile<Int, Int>(data: Data(lines.joined(separator: "\n").utf8))
    #expect(read.problems.isEmpty, "\(read.problems)")
    #expect(
      read.moments.dropFirst().map(\.time) == [
        .zero, .zero, .zero, .zero, .nanoseconds(1), .seconds(7), .seconds(9_223_372_036) + .nanoseconds(854_776_382),
        .nanoseconds(1), .seconds(9_223_372_036_854_774_784),
      ])
  }

  @Test(
    "a time or sequence number of the wrong kind spoils only its line: a string, a fraction, a negative, past UInt64")
  func wrongKindsOfNumbers() throws {
    let bad = [
      #"{"event":1,"sequence":1,"state":1,"time":"1.5"}"#, #"{"event":1,"sequence":1.5,"state":1}"#,
      #"{"event":1,"sequence":-1,"state":1}"#, #"{"event":1,"sequence":18446744073709551616,"state":1}"#,
      #"{"event":1,"sequence":"2","state":1}"#,
      #"{"event":1,"sequence":3,"state":1,"time":99999999999999999999999999999999}"#,
      #"{"event":1,"sequence":4,"state":1,"time":9223372036854775807}"#,
    ]
    let lines = [#"{"sequence":0,"state":0}"#] + bad + [#"{"event":1,"sequence":18446744073709551615,"state":2}"#]
    let read = TimelineFile<Int, Int>(data: Data(lines.joined(separator: "\n").utf8))
    #expect(read.moments.map(\.sequence) == [0, .max])
    let spoiled = read.problems.filter { if case .gap = $0.kind { false } else { true } }
    #expect(spoiled.map(\.line) == Array(2...8))
  }

  @Test("G13 a moment recorded centuries into a test clock's time reads back from the file the writer wrote")
  func centuriesIntoTheClock() throws {
    let url = temporaryFile("centuries")
    defer { try? FileManager.default.removeItem(at: url) }
    let file = try TimelineFileWriter<Int, Int>(url: url)
    let recorder = Recorder(capacity: 10, file: file, clock: harness.clock)
    let system = System(
      initial: 0, reduceReturning: { $0 + $1 }, environment: harness.environment, monitor: recorder.monitor)
    let fourHundredYears = Duration.seconds(400 * 365 * 86_400)
    harness.clock.advance(by: fourHundredYears)
    system.send(1)
    system.stop()
    #expect(file.finish() == .init(written: 2, dropped: 0, unencodable: 0))
    let read = try TimelineFile<Int, Int>(contentsOf: url)
    #expect(read.problems.isEmpty, "\(read.problems)")
    #expect(read.moments.map(\.time) == [.zero, fourHundredYears])
  }

}
