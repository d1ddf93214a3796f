import FeedbackLoopDurable
import Foundation

/// The event every durable workload sends: a counter's, `Codable` so that a
/// durable system can store it.
enum Tally: Codable, Sendable, Equatable {
  case increment
  case decrement
}

/// The counter the durable workloads drive: State an `Int`.
enum Tallies {
  @Sendable static func reduce(_ state: inout Int, _ event: Tally) {
    switch event {
    case .increment: state += 1
    case .decrement: state -= 1
    }
  }

  /// The event numbered `index` (from 0): three increments, then a
  /// decrement, repeated.
  static func event(_ index: Int) -> Tally { index % 4 == 3 ? .decrement : .increment }

  static func events(count: Int) -> [Tally] { (0..<count).map(event) }

  /// The state the first `count` events lead to from 0.
  static func finalState(count: Int) -> Int { count - 2 * (count / 4) }

  /// The bytes a durable system stores for `event` with the run's codec
  /// and the default schema version: the raw baselines insert exactly
  /// these, so that their rows have the durable rows' shape and size.
  static func payload(_ event: Tally) -> Data {
    try! BenchmarkCodec.codec.encode(DurableEnvelope(version: 1, value: event))
  }

  /// The stored payload of the event numbered `index`.
  static let payloads: [Data] = [payload(.increment), payload(.decrement)]
  static func payload(at index: Int) -> Data { payloads[index % 4 == 3 ? 1 : 0] }
}

/// The codec every durable system of the run uses: JSON (the default), or
/// the binary codec when `DURABLE_CODEC=binary`. `run` passes it on.
enum BenchmarkCodec {
  static let name = ProcessInfo.processInfo.environment["DURABLE_CODEC"] == "binary" ? "binary" : "json"
  static let codec: any DurableCodec = name == "binary" ? BinaryDurableCodec() : JSONDurableCodec()
}
