import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoopDebugging

@Suite(.runsLeftoverJobs) struct InspectionTests {
  let harness = Harness()

  final class Lines: @unchecked Sendable {
    // Sendable: `lines` is only touched under `lock`.
    private let lock = NSLock()
    private var lines: [String] = []
    func append(_ line: String) { lock.withLock { lines.append(line) } }
    var all: [String] { lock.withLock { lines } }
  }

  @Test("one JSON message per activity, with the system's id, its parent's, and a number")
  func messages() throws {
    let lines = Lines()
    let stream = InspectionStream<PagedSearch.State, PagedSearch.Event>(
      system: "search", parent: "app", clock: harness.clock)
    stream.add { inspection in
      if let line = try? InspectionMessage(inspection, serializer: .codable).jsonLine() { lines.append(line) }
    }
    let system = harness.search(monitor: stream.monitor)
    system.send(.search("swift"))
    harness.clock.advance(by: .seconds(1))
    system.stop()
    let messages = try lines.all.map { try JSONDecoder().decode(InspectionMessage.self, from: Data($0.utf8)) }
    #expect(
      messages.map(\.kind) == [.started, .reduced, .effectStarted, .reduced, .effectFinished, .stopped]
        || messages.map(\.kind) == [.started, .reduced, .effectStarted, .effectFinished, .reduced, .stopped])
    #expect(messages.map(\.sequence) == Array(0..<UInt64(messages.count)))
    #expect(messages.allSatisfy { $0.system == "search" && $0.parent == "app" && $0.version == 1 })
    #expect(messages[1].event == .object(["search": .object(["_0": .string("swift")])]))
    #expect(messages[1].source == .external)
    #expect(try messages[1].state?.decode(PagedSearch.State.self).loadingPage == 1)
    #expect(messages[2].effect?.feedback.name == "request")
    #expect(messages.last(where: { $0.kind == .reduced })?.time == 1)
    #expect(lines.all[0].hasPrefix(#"{"kind":"started","#))
    #expect(!lines.all.contains { $0.contains("\n") })
  }

  @Test("the filter hook chooses the activities; the serialize hook chooses what a state shows")
  func hooks() throws {
    let lines = Lines()
    let stream = InspectionStream<PagedSearch.State, PagedSearch.Event>(system: "search") { inspection in
      if case .reduced = inspection.activity { true } else { false }
    }
    let redacting = InspectionSerializer<PagedSearch.State, PagedSearch.Event>(
      state: { .string("\($0.results.count) results") }, event: { _ in nil })
    stream.add { inspection in
      if let line = try? InspectionMessage(inspection, serializer: redacting).jsonLine() { lines.append(line) }
    }
    let system = harness.search(monitor: stream.monitor)
    harness.recordTwoPages(system)
    let messages = try lines.all.map { try JSONDecoder().decode(InspectionMessage.self, from: Data($0.utf8)) }
    #expect(messages.count == 4)
    #expect(messages.allSatisfy { $0.kind == .reduced && $0.event == nil })
    #expect(
      messages.map(\.state) == [.string("0 results"), .string("2 results"), .string("2 results"), .string("4 results")])
    // Numbers count every activity, filtered or not: the gaps show what was left out.
    #expect(messages.first?.sequence == 1)
  }

  @Test("the recorder and another tool consume the same stream")
  func sharedStream() {
    let stream = InspectionStream<PagedSearch.State, PagedSearch.Event>(system: "search")
    let recorder = Recorder<PagedSearch.State, PagedSearch.Event>()
    let lines = Lines()
    stream.add(recorder.consume)
    stream.add { lines.append("\($0.sequence)") }
    let system = harness.search(monitor: stream.monitor)
    harness.recordTwoPages(system)
    #expect(recorder.moments.count == 5)
    #expect(lines.all.count > 5)
  }

  @Test("a late consumer catches up on the recorder's moments, then goes on live: nothing missed, nothing twice")
  func catchingUp() async {
    let recorder = Recorder<Int, Int>(capacity: 100_000)
    let system = System(initial: 0, reduceReturning: { $0 + $1 }, monitor: recorder.monitor)
    let seen = Lines()
    let sender = Task.detached { for _ in 0..<2_000 { system.send(1) } }
    await Task.yield()
    recorder.stream.add(
      catchingUp: { for moment in recorder.moments { seen.append("\(moment.state)") } },
      { inspection in
        if case .reduced(_, _, let state, _) = inspection.activity { seen.append("\(state)") }
      })
    await sender.value
    while system.state < 2_000 { await Task.yield() }
    #expect(seen.all == (0...2_000).map { "\($0)" })
  }

  @Test("G14 an event refused at the door, from another thread, is in the stream and in the moment")
  func discardedEvents() async {
    let recorder = Recorder<Int, Int>()
    let system = System(initial: 0, reduceReturning: { $0 + $1 }, monitor: recorder.monitor)
    system.stop()
    await Task.detached { system.send(1) }.value
    let last = recorder.moments.last
    #expect(last?.stopped == true)
    #expect(recorder.moments.count == 1)
    #expect(last?.discarded == [DiscardedEvent(event: 1, reason: "systemStopped")])
  }
}
