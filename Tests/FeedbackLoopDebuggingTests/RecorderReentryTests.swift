import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoopDebugging

/// The app's code that the recorder runs while it records (an effect's
/// error's `description`, a `deinit` of a state it lets go) may read the
/// recorder or send to a system whose refusal is reported on the same
/// thread. The recorder runs it outside its section, so neither waits for
/// the thread that runs it: nothing hangs, nothing is lost.
@Suite(.runsLeftoverJobs) struct RecorderReentryTests {
  /// An error whose description is `describe`, run each time it is described.
  struct HostileError: Error, CustomStringConvertible {
    let describe: @Sendable () -> String
    var description: String { describe() }
  }

  /// A state's part whose `deinit` runs `onDeinit`.
  final class Probe: Sendable {
    let onDeinit: @Sendable () -> Void
    init(onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
    deinit { onDeinit() }
  }

  struct ProbedState: Sendable {
    var count: Int
    var probe: Probe
  }

  /// A system whose feedback fails once its state is 1, with `error`.
  func failingSystem(
    _ harness: Harness, monitor: SystemMonitor<Int, Int>, error: @escaping @Sendable () -> HostileError
  ) -> System<Int, Int> {
    var environment = harness.environment
    environment.logger = LogRecorder().logger
    return System(
      initial: 0, reduceReturning: { $0 + $1 },
      feedbacks: [Feedback.query({ $0 == 1 ? $0 : nil }, name: "failing") { _ in .run { _ in throw error() } }],
      environment: environment, monitor: monitor)
  }

  @Test("an effect's error whose description reads the recorder is recorded, and nothing waits")
  func errorDescriptionReadsTheRecorder() {
    let harness = Harness()
    let recorder = Recorder<Int, Int>()
    let seen = Locked<[Int]>([])
    let system = failingSystem(harness, monitor: recorder.monitor) {
      HostileError {
        let count = recorder.moments.count
        seen.withLock { $0.append(count) }
        return "failed with \(count) moments recorded"
      }
    }
    system.send(1)
    harness.settle()
    #expect(!seen.withLock { $0 }.isEmpty)
    let failed = recorder.moments.last?.effects.filter { $0.kind == .failed } ?? []
    #expect(failed.map(\.error) == ["failed with 2 moments recorded"])
    system.stop()
  }

  @Test(
    "an effect's error whose description sends to its own full system: the refusal is recorded too, and nothing waits")
  func errorDescriptionSendsToAFullSystem() {
    let harness = Harness(eventBuffer: .dropNewest(limit: 0))
    let recorder = Recorder<Int, Int>()
    let target = Locked<System<Int, Int>?>(nil)
    let sent = Locked(0)
    let system = failingSystem(harness, monitor: recorder.monitor) {
      HostileError {
        sent.withLock { $0 += 1 }
        target.withLock { $0 }?.send(100)
        return "sent while described"
      }
    }
    target.withLock { $0 = system }
    system.send(1)
    harness.settle()
    let moments = recorder.moments
    let failed = moments.flatMap(\.effects).filter { $0.kind == .failed }
    #expect(failed.map(\.error) == ["sent while described"])
    // Every send of the description is reduced or recorded as refused.
    let reduced = moments.filter { $0.event == 100 }.count
    let refused = moments.flatMap(\.discarded).filter { $0.event == 100 && $0.reason == "bufferFull" }.count
    #expect(sent.withLock { $0 } >= 1)
    #expect(reduced + refused == sent.withLock { $0 })
    target.withLock { $0 = nil }
    system.stop()
  }

  @Test(
    "with a consumer on the recorder's stream (the monitor's), an error whose description sends to its own full system is described once, before the stream's lock"
  )
  func errorDescriptionSendsWithAStreamConsumer() throws {
    let harness = Harness(eventBuffer: .dropNewest(limit: 0))
    let recorder = Recorder<Int, Int>()
    let messages = Locked<[InspectionMessage]>([])
    recorder.stream.add { inspection in
      if let message = try? InspectionMessage(inspection, serializer: .codable) {
        messages.withLock { $0.append(message) }
      }
    }
    let target = Locked<System<Int, Int>?>(nil)
    let described = Locked(0)
    let system = failingSystem(harness, monitor: recorder.monitor) {
      HostileError {
        let count = described.withLock { count in
          count += 1
          return count
        }
        target.withLock { $0 }?.send(100)
        return "description \(count)"
      }
    }
    target.withLock { $0 = system }
    system.send(1)
    harness.settle()
    let failedMessages = messages.withLock { $0 }.filter { $0.kind == .effectFailed }
    let failedChanges = recorder.moments.flatMap(\.effects).filter { $0.kind == .failed }
    // The logger describes it first, the stream once more: the recorder and the consumer share that one.
    #expect(failedMessages.count == 1 && failedChanges.count == 1)
    #expect(failedMessages.first?.error == failedChanges.first?.error)
    #expect(failedChanges.first?.error == "description \(described.withLock { $0 })")
    target.withLock { $0 = nil }
    system.stop()
  }

  @Test("a state let go by the full ring runs its deinit out of the recorder's section: it may read the recorder")
  func deinitOfAnOverwrittenStateReadsTheRecorder() {
    let recorder = Locked<Recorder<ProbedState, Int>?>(Recorder(capacity: 1))
    let counts = Locked<[Int]>([])
    let probe: @Sendable () -> Probe = {
      Probe { counts.withLock { $0.append(recorder.withLock { $0 }?.moments.count ?? -1) } }
    }
    let system = System(
      initial: ProbedState(count: 0, probe: probe()),
      reduceReturning: { state, event in ProbedState(count: state.count + event, probe: probe()) },
      monitor: recorder.withLock { $0 }!.monitor)
    for _ in 1...4 { system.send(1) }
    // Moments 0 to 2 left the ring (capacity 1, and the open moment): their probes ended, reading the recorder.
    #expect(counts.withLock { $0 } == [2, 2, 2])
    #expect(recorder.withLock { $0 }?.moments.map(\.sequence) == [3, 4])
    system.stop()
    recorder.withLock { $0 = nil }
  }

  @Test("a negative recorder capacity stops with a message that says so, in optimized builds too")
  func negativeCapacityStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = Recorder<Int, Int>(capacity: -1)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("a recorder's capacity cannot be negative (-1)"), "stderr: \(message)")
  }

  @Test("a timeline file writer without room stops with a message that says so, in optimized builds too")
  func writerWithoutRoomStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      let url = FileManager.default.temporaryDirectory.appendingPathComponent("no-room-\(UUID().uuidString).jsonl")
      _ = try? TimelineFileWriter<Int, Int>(url: url, bufferCapacity: 0)
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("needs room for at least one moment (bufferCapacity 0)"), "stderr: \(message)")
  }

  @Test(
    "a stream consumer that sends to its own full system: the refusal reaches the recorder and the consumer, and nothing waits",
    .timeLimit(.minutes(1)))
  func consumerSendsToItsOwnFullSystem() {
    let harness = Harness(eventBuffer: .dropNewest(limit: 0))
    let recorder = Recorder<Int, Int>()
    let target = Locked<System<Int, Int>?>(nil)
    let kinds = Locked<[InspectionMessage.Kind]>([])
    recorder.stream.add { inspection in
      guard let message = try? InspectionMessage(inspection, serializer: .codable) else { return }
      kinds.withLock { $0.append(message.kind) }
      // Once, on the reduction of 1: the loop is busy reducing, so the full buffer refuses it.
      if message.kind == .reduced, message.event == .number(1) { target.withLock { $0 }?.send(100) }
    }
    let system = System(
      initial: 0, reduceReturning: { $0 + $1 }, environment: harness.environment, monitor: recorder.monitor)
    target.withLock { $0 = system }
    system.send(1)
    system.send(2)
    harness.settle()
    let moments = recorder.moments
    let reduced = moments.filter { $0.event == 100 }.count
    let refused = moments.flatMap(\.discarded).filter { $0.event == 100 }.count
    #expect(reduced + refused == 1)
    #expect(moments.compactMap(\.event).filter { $0 != 100 } == [1, 2])
    #expect(kinds.withLock { $0 }.filter { $0 == .reduced }.count == moments.count - 1)
    target.withLock { $0 = nil }
    system.stop()
  }

  @Test("a stream consumer that adds another consumer, and reads the recorder: nothing waits", .timeLimit(.minutes(1)))
  func consumerAddsAConsumer() {
    let recorder = Recorder<Int, Int>()
    let second = Locked<[UInt64]>([])
    let added = Locked(false)
    let read = Locked<[Int]>([])
    // Weakly: the recorder's stream keeps the consumer.
    recorder.stream.add { [weak recorder] inspection in
      guard let recorder else { return }
      read.withLock { $0.append(recorder.moments.count) }
      let first = added.withLock { wasAdded in
        defer { wasAdded = true }
        return !wasAdded
      }
      guard first else { return }
      recorder.stream.add { later in second.withLock { $0.append(later.sequence) } }
    }
    let system = System(initial: 0, reduceReturning: { $0 + $1 }, monitor: recorder.monitor)
    system.send(1)
    system.send(2)
    #expect(recorder.moments.compactMap(\.event) == [1, 2])
    #expect(!second.withLock { $0 }.isEmpty)
    #expect(!read.withLock { $0 }.isEmpty)
    system.stop()
  }

  @Test(
    "an effect's error whose description stops its system: the failure and the stop are recorded, nothing waits",
    .timeLimit(.minutes(1)))
  func errorDescriptionStopsTheSystem() {
    let harness = Harness()
    let recorder = Recorder<Int, Int>()
    let target = Locked<System<Int, Int>?>(nil)
    let system = failingSystem(harness, monitor: recorder.monitor) {
      HostileError {
        target.withLock { $0 }?.stop()
        return "stopped while described"
      }
    }
    target.withLock { $0 = system }
    system.send(1)
    harness.settle()
    let moments = recorder.moments
    #expect(moments.flatMap(\.effects).contains { $0.kind == .failed && $0.error == "stopped while described" })
    #expect(moments.last?.stopped == true)
    target.withLock { $0 = nil }
  }

  @Test(
    "a state's deinit that sends to the system recording it: every send is reduced or refused, nothing waits",
    .timeLimit(.minutes(1)))
  func deinitSendsToTheRecordedSystem() {
    let recorder = Recorder<ProbedState, Int>(capacity: 1)
    let target = Locked<System<ProbedState, Int>?>(nil)
    let sent = Locked(0)
    let probe: @Sendable (Int) -> Probe = { count in
      Probe {
        // Only the probes of the first states answer, so the sends end.
        guard count < 3 else { return }
        sent.withLock { $0 += 1 }
        target.withLock { $0 }?.send(10)
      }
    }
    let system = System(
      initial: ProbedState(count: 0, probe: probe(0)),
      reduceReturning: { state, event in ProbedState(count: state.count + event, probe: probe(state.count + event)) },
      monitor: recorder.monitor)
    target.withLock { $0 = system }
    for _ in 1...4 { system.send(1) }
    let sends = sent.withLock { $0 }
    #expect(sends >= 1)
    // Each send of a deinit is reduced (the buffer is unbounded): one moment, and 10, each.
    #expect(recorder.moments.last?.sequence == UInt64(4 + sends))
    #expect(system.state.count == 4 + 10 * sends)
    target.withLock { $0 = nil }
    system.stop()
  }

  @Test(
    "with a stream consumer, a state let go by the full ring whose deinit sends to its own full system: nothing waits",
    .timeLimit(.minutes(1)))
  func deinitSendsToAFullSystemWithAStreamConsumer() {
    let harness = Harness(eventBuffer: .dropNewest(limit: 0))
    let recorder = Recorder<ProbedState, Int>(capacity: 1)
    let delivered = Locked(0)
    recorder.stream.add { _ in delivered.withLock { $0 += 1 } }
    let target = Locked<System<ProbedState, Int>?>(nil)
    let sent = Locked(0)
    let probe: @Sendable (Int) -> Probe = { count in
      Probe {
        guard count < 3 else { return }
        sent.withLock { $0 += 1 }
        target.withLock { $0 }?.send(10)
      }
    }
    let system = System(
      initial: ProbedState(count: 0, probe: probe(0)),
      reduceReturning: { state, event in ProbedState(count: state.count + event, probe: probe(state.count + event)) },
      environment: harness.environment, monitor: recorder.monitor)
    target.withLock { $0 = system }
    for _ in 1...4 { system.send(1) }
    harness.settle()
    #expect(sent.withLock { $0 } >= 1)
    #expect(system.state.count >= 4)
    #expect(delivered.withLock { $0 } >= 5)
    target.withLock { $0 = nil }
    system.stop()
  }

  @Test(
    "two threads send while a stream consumer sends back and reads the recorder: every activity reaches it once, in order",
    .timeLimit(.minutes(1)))
  func twoThreadsWhileAConsumerReenters() {
    let recorder = Recorder<Int, Int>(capacity: 10_000)
    let target = Locked<System<Int, Int>?>(nil)
    let seen = Locked<[UInt64]>([])
    let reducedEvents = Locked<[Int]>([])
    // Weakly: the recorder's stream keeps the consumer.
    recorder.stream.add { [weak recorder] inspection in
      seen.withLock { $0.append(inspection.sequence) }
      guard case .reduced(let event, _, _, _) = inspection.activity else { return }
      reducedEvents.withLock { $0.append(event) }
      _ = recorder?.moments.count
      // Each event sent from a thread is answered once, from the consumer.
      if event < 1_000 { target.withLock { $0 }?.send(event + 1_000) }
    }
    let system = System(initial: 0, reduceReturning: { $0 + $1 }, monitor: recorder.monitor)
    target.withLock { $0 = system }
    DispatchQueue.concurrentPerform(iterations: 2) { thread in
      for value in 1...200 { system.send(thread * 500 + value) }
    }
    let events = reducedEvents.withLock { $0 }
    #expect(events.count == 800)
    #expect(Set(events).count == 800)
    let sequences = seen.withLock { $0 }
    #expect(sequences == sequences.sorted() && Set(sequences).count == sequences.count)
    #expect(recorder.moments.count == 801)
    target.withLock { $0 = nil }
    system.stop()
  }

}
