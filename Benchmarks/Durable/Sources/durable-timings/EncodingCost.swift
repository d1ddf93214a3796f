import FeedbackLoopDurable
import Foundation

/// D1-encode, a reference for D1 and D4: what the writer's encoding of one
/// event costs, as the durable system does it (`JSONDurableCodec`, through
/// `DurableEnvelope`: the binary writer and a transcoder to JSONEncoder's
/// bytes since branch `s14-json`), with one `JSONEncoder` reused (what
/// `JSONDurableCodec` was; the two must write the same bytes), and with
/// `BinaryDurableCodec`, in ns per event.
enum EncodingCost {
  static let eventCount = 100_000

  static func run(rounds: Int) {
    let events = Tallies.events(count: eventCount)
    let codec = JSONDurableCodec()
    let reused = JSONEncoder()
    reused.outputFormatting = .sortedKeys
    var perCodec: [Double] = []
    var perReused: [Double] = []
    var perBinary: [Double] = []
    let binary = BinaryDurableCodec()
    let clock = ContinuousClock()
    for _ in 0..<rounds {
      var bytes = 0
      var start = clock.now
      for event in events { bytes += try! codec.encode(DurableEnvelope(version: 1, value: event)).count }
      perCodec.append(nanoseconds(start.duration(to: clock.now)) / Double(eventCount))
      start = clock.now
      for event in events { bytes -= try! reused.encode(DurableEnvelope(version: 1, value: event)).count }
      perReused.append(nanoseconds(start.duration(to: clock.now)) / Double(eventCount))
      check(bytes == 0, "the two encoders gave different bytes")
      start = clock.now
      for event in events { bytes += try! binary.encode(DurableEnvelope(version: 1, value: event)).count }
      perBinary.append(nanoseconds(start.duration(to: clock.now)) / Double(eventCount))
    }
    let codecMedian = median(perCodec)
    let reusedMedian = median(perReused)
    print(
      "D1-encode \(eventCount) events: JSONDurableCodec \(format(codecMedian)) ns/event, one JSONEncoder reused"
        + " \(format(reusedMedian)) ns/event; medians of \(rounds)")
    printResult("D1-encode", format(codecMedian), format(codecMedian / reusedMedian))
    let binaryMedian = median(perBinary)
    print("D1-encode BinaryDurableCodec \(format(binaryMedian)) ns/event (ratio to JSONDurableCodec)")
    printResult("D1-encode-binary", format(binaryMedian), format(binaryMedian / codecMedian))
  }
}
