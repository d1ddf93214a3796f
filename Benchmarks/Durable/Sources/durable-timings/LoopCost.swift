import FeedbackLoop
import FeedbackLoopDurable
import Foundation

/// D4: the loop's own cost when durable. W1 of the main benchmark package
/// (1,000,000 events sent through one `Input`, timed until the last state
/// is observed), once on a plain `System`, once on a `DurableSystem` over an
/// `InMemoryJournal`, so that what differs is the ledger and the writer's
/// queue (the encoding and the in-memory append run on the writer's task,
/// beside the loop), not a disk. Both with the same in-place reducer.
enum LoopCost {
  static let eventCount = 1_000_000

  static func plain(_ events: [Tally]) async -> Duration {
    let input = Input<Tally>()
    let system = System(initial: 0, reduce: Tallies.reduce, feedbacks: [.input(input)])
    let expected = Tallies.finalState(count: events.count)
    let clock = ContinuousClock()
    let start = clock.now
    for event in events { input.send(event) }
    await waitUntil(expected, observe: { system.observe($0) }, current: { system.state })
    let elapsed = start.duration(to: clock.now)
    check(system.state == expected, "W1 ended at \(system.state)")
    system.stop()
    return elapsed
  }

  /// Returns the time until the last state is observed, and until the
  /// last event is committed.
  static func durable(
    _ events: [Tally], codec: some DurableCodec = JSONDurableCodec()
  ) async throws -> (reduced: Duration, committed: Duration) {
    let input = Input<Tally>()
    let writer = JournalWriter(journal: InMemoryJournal())
    let system = try await DurableSystem.restore(
      id: "w1", writer: writer, initial: 0, reduce: Tallies.reduce, feedbacks: [.input(input)], codec: codec)
    let expected = Tallies.finalState(count: events.count)
    let clock = ContinuousClock()
    let start = clock.now
    for event in events { input.send(event) }
    await waitUntil(expected, observe: { system.observe($0) }, current: { system.state })
    let reduced = start.duration(to: clock.now)
    try await system.waitForCommit()
    let committed = start.duration(to: clock.now)
    check(system.state == expected, "durable W1 ended at \(system.state)")
    check(system.committedSequence == UInt64(events.count), "durable W1 committed \(system.committedSequence)")
    system.stop()
    return (reduced, committed)
  }

  /// Waits, without sleeping, until the state is `expected`.
  static func waitUntil(
    _ expected: Int, observe: (@escaping @Sendable (Int) -> Void) -> StateObservation, current: () -> Int
  ) async {
    if current() == expected { return }
    let (reached, signal) = AsyncStream<Void>.makeStream(bufferingPolicy: .bufferingNewest(1))
    let observation = observe { state in
      if state == expected { signal.yield() }
    }
    for await _ in reached { break }
    observation.cancel()
  }

  static func run(rounds: Int) async throws {
    let events = Tallies.events(count: eventCount)
    _ = await plain(events)  // warm-up
    _ = try await durable(events, codec: BenchmarkCodec.codec)
    var plainTimes: [Double] = []
    var reducedTimes: [Double] = []
    var committedTimes: [Double] = []
    var constantTimes: [Double] = []
    for round in 0..<rounds {
      let plainTime = nanoseconds(await plain(events)) / Double(eventCount)
      let (reduced, committed) = try await durable(events, codec: BenchmarkCodec.codec)
      plainTimes.append(plainTime)
      reducedTimes.append(nanoseconds(reduced) / Double(eventCount))
      committedTimes.append(nanoseconds(committed) / Double(eventCount))
      constantTimes.append(nanoseconds(try await durable(events, codec: ConstantCodec()).reduced) / Double(eventCount))
      print(
        "D4 round \(round + 1): W1 \(format(plainTime)) ns/event; durable W1 \(format(reducedTimes.last!)) ns/event"
          + " to the last state, \(format(committedTimes.last!)) to the last commit")
    }
    let plainMedian = median(plainTimes)
    let reducedMedian = median(reducedTimes)
    let committedMedian = median(committedTimes)
    print(
      "D4 \(eventCount) events through one Input: W1 \(format(plainMedian)) ns/event, durable over InMemoryJournal"
        + " \(format(reducedMedian)) to the last state (\(format(reducedMedian / plainMedian)) times),"
        + " \(format(committedMedian)) to the last commit (\(format(committedMedian / plainMedian)) times);"
        + " medians of \(rounds) runs")
    printResult("D4", format(reducedMedian), format(reducedMedian / plainMedian))
    printResult("D4-committed", format(committedMedian), format(committedMedian / plainMedian))
    let constantMedian = median(constantTimes)
    print(
      "D4 reference: the same durable W1 with a codec that encodes nothing (one constant payload):"
        + " \(format(constantMedian)) ns/event to the last state (\(format(constantMedian / plainMedian)) times W1):"
        + " the ledger and the writer's queue without the JSON encoding")
    printResult("D4-constant-codec", format(constantMedian), format(constantMedian / plainMedian))
  }
}

/// A codec that encodes nothing: every value is the same stored payload.
/// For D4's reference only (it never restores, so it never decodes).
struct ConstantCodec: DurableCodec {
  func encode(_ value: some Encodable) throws -> Data { Tallies.payloads[0] }

  func decode<Value: Decodable>(_ type: Value.Type, from data: Data) throws -> Value {
    fatalError("ConstantCodec cannot decode: D4's reference never restores a stored system")
  }
}
