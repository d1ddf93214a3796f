import FeedbackLoop
import FeedbackLoopDebugging
import Foundation

/// W1 with a recorder attached (issue 14): the same million events through
/// one Input, with every moment recorded in a ring of the last 1,000 in
/// memory (`W1mem`), or written to a JSON Lines file by the writer thread
/// (`W1file`). Compared with W1 measured in the same run.
public enum RecordedInputThroughput {
  public static let ringCapacity = 1_000

  public static let inMemory = Workload(
    id: "W1mem", summary: "W1 with an in-memory recorder (a ring of 1,000 moments)",
    operations: InputThroughput.eventCount, runs: 11,
    makeTrial: { trial(events: Counter.events(count: InputThroughput.eventCount), file: nil) })

  public static let toFile = Workload(
    id: "W1file", summary: "W1 with the JSON Lines recorder (ring of 1,000 and a file)",
    operations: InputThroughput.eventCount, runs: 11,
    makeTrial: {
      let url = FileManager.default.temporaryDirectory.appendingPathComponent("feedbackloop-W1file.jsonl")
      let file = try! TimelineFileWriter<Int, CounterEvent>(url: url)
      return trial(events: Counter.events(count: InputThroughput.eventCount), file: file)
    })

  /// W1 with a monitor that does nothing: what any monitor costs the core,
  /// the floor under W1mem.
  public static let emptyMonitor = Workload(
    id: "W1monitor", summary: "W1 with a monitor that does nothing",
    operations: InputThroughput.eventCount, runs: 11,
    makeTrial: {
      let events = Counter.events(count: InputThroughput.eventCount)
      let input = Input<CounterEvent>()
      let system = System(
        initial: 0, reduceReturning: Counter.reduce, feedbacks: [.input(input)], monitor: SystemMonitor { _ in })
      let expected = Counter.finalState(count: events.count)
      return Trial(
        run: {
          for event in events { input.send(event) }
          await system.waitUntil { $0 == expected }
        },
        finish: {
          check(system.state == expected, "W1monitor ended at \(system.state)")
          system.stop()
        })
    })

  static func trial(events: [CounterEvent], file: TimelineFileWriter<Int, CounterEvent>?) -> Trial {
    let input = Input<CounterEvent>()
    let recorder =
      file.map { Recorder(capacity: ringCapacity, file: $0) } ?? Recorder<Int, CounterEvent>(capacity: ringCapacity)
    let system = System(
      initial: 0, reduceReturning: Counter.reduce, feedbacks: [.input(input)], monitor: recorder.monitor)
    let expected = Counter.finalState(count: events.count)
    return Trial(
      run: {
        for event in events { input.send(event) }
        await system.waitUntil { $0 == expected }
      },
      finish: {
        check(system.state == expected, "W1 recorded ended at \(system.state)")
        check(recorder.moments.last?.sequence == UInt64(events.count), "the recorder missed a moment")
        system.stop()
        if let file {
          // Moments 0...count, closed when the system stopped: each one written or counted as dropped.
          let summary = file.finish()
          let moments = UInt64(events.count) + 1
          check(summary.written + summary.dropped == moments, "W1file lost moments without counting them")
          print("COUNTED W1file \(summary.written) moments written, \(summary.dropped) dropped and counted")
        }
      })
  }
}

extension CounterEvent: Codable {
  public init(from decoder: any Decoder) throws {
    let name = try decoder.singleValueContainer().decode(String.self)
    switch name {
    case "increment": self = .increment
    case "decrement": self = .decrement
    default:
      throw DecodingError.dataCorrupted(
        DecodingError.Context(codingPath: decoder.codingPath, debugDescription: "no CounterEvent \(name)"))
    }
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(self == .increment ? "increment" : "decrement")
  }
}
