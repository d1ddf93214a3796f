import Dispatch
import Foundation
import Testing

@testable import FeedbackLoop

/// The loop calls its monitor's reduction report through an unretained
/// reference to the core's monitor box, without a copy: nothing may free the
/// monitor's closures while one of them runs. These attack the borrow from
/// inside the report (a stop, the last release, sends, another system's
/// inline loop) and from other threads (a release, a stop, a refused send
/// that reads the monitor under the lock while the loop reports). Run them
/// under `--sanitize=address` and `--sanitize=thread` too.
@Suite("Hostile monitor borrow", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct HostileMonitorBorrowTests {
  /// Counts its deinitializations: a monitor's captures are freed once.
  final class Sentinel: Sendable {
    let freed: Log<Int>
    init(_ freed: Log<Int>) { self.freed = freed }
    deinit { freed.append(1) }
  }

  /// What a report captures besides the sentinel: a heap buffer the report
  /// reads after its hostile act, so that a freed context is read there.
  final class Payload: @unchecked Sendable {
    // Sendable: written in `init` only.
    let words: [Int]
    init() { words = Array(0..<64) }
    var sum: Int { words.reduce(0, +) }
  }

  /// How the hostile report reaches the core: the plain `receive` closure,
  /// the `.reduced` shortcut (the recorder's and the durable ledger's), or
  /// either of those inside `combining`.
  enum Kind: String, CaseIterable, Sendable, CustomTestStringConvertible {
    case plain, shortcut, combinedPlain, combinedShortcut
    var testDescription: String { rawValue }
  }

  /// A monitor of `kind` that calls `act` for each reduced event, then
  /// checks that its captures are intact, and logs the event.
  static func monitor(
    _ kind: Kind, sentinel: Sentinel, log: Log<String>, act: @escaping @Sendable (Int) -> Void
  ) -> SystemMonitor<Int, Int> {
    let payload = Payload()
    let reduced: @Sendable (Int) -> Void = { event in
      act(event)
      // Read after the act: the closure's context must still be there.
      log.append(payload.sum == 2016 ? "reduced \(event)" : "corrupt \(event)")
      _ = sentinel
    }
    let receive: @Sendable (SystemActivity<Int, Int>) -> Void = { activity in
      switch activity {
      case .reduced(let event, _, _, _): reduced(event)
      case .eventDiscarded(let event, let reason): log.append("discarded \(event) \(reason)")
      case .stopped: log.append("stopped")
      default: break
      }
    }
    switch kind {
    case .plain:
      return SystemMonitor(receive)
    case .shortcut:
      return SystemMonitor(receive, reduced: { event, _, _, _, _ in reduced(event) })
    case .combinedPlain:
      return .combining([SystemMonitor { _ in }, SystemMonitor(receive)])
    case .combinedShortcut:
      return .combining([
        SystemMonitor(receive, reduced: { event, _, _, _, _ in reduced(event) }), SystemMonitor { _ in },
      ])
    }
  }

  @Test(
    "G9 a monitor whose .reduced report stops the system: later events are discarded, the report finishes intact",
    arguments: Kind.allCases)
  func reportStopsTheSystem(kind: Kind) {
    let log = Log<String>()
    let freed = Log<Int>()
    let system = Ref<System<Int, Int>>()
    system.value = System(
      initial: 0, reduceReturning: { $0 + $1 },
      monitor: Self.monitor(kind, sentinel: Sentinel(freed), log: log) { event in
        if event == 2 { system.value?.stop() }
      })
    system.value?.send(contentsOf: [1, 2, 3])
    system.value?.send(4)
    #expect(system.value?.isStopped == true)
    #expect(system.value?.state == 3)
    // 3 and 4 are sent after the stop, each refused at the door.
    #expect(
      log.entries == ["reduced 1", "reduced 2", "stopped", "discarded 3 systemStopped", "discarded 4 systemStopped"])
    system.value = nil
    #expect(freed.entries.count == 1, "the monitor outlived the released system, or was freed twice")
  }

  @Test(
    "G9 the last reference released from the .reduced report: the system tears down after the report returns, its monitor freed once",
    arguments: Kind.allCases)
  func reportReleasesTheLastReference(kind: Kind) {
    let log = Log<String>()
    let freed = Log<Int>()
    let system = Ref<System<Int, Int>>()
    let input = Input<Int>()
    system.value = System(
      initial: 0, reduceReturning: { $0 + $1 }, feedbacks: [.input(input)],
      monitor: Self.monitor(kind, sentinel: Sentinel(freed), log: log) { event in
        guard event == 1 else { return }
        input.send(2)  // queued behind this reduction
        let taken = system.value
        system.value = nil
        _ = consume taken  // System.deinit, inside the report
        log.append("released")
      })
    input.send(1)
    input.send(3)
    #expect(log.entries == ["released", "reduced 1", "discarded 2 systemStopped", "stopped"])
    #expect(!log.entries.contains("reduced 2"))
    #expect(!log.entries.contains { $0.hasPrefix("corrupt") })
    #expect(freed.entries.count == 1, "the released system's monitor was not freed once")
  }

  @Test(
    "G9 the last reference released by another thread while the loop is inside the .reduced report",
    arguments: Kind.allCases)
  func anotherThreadReleasesDuringTheReport(kind: Kind) {
    let log = Log<String>()
    let freed = Log<Int>()
    let system = Ref<System<Int, Int>>()
    let input = Input<Int>()
    system.value = System(
      initial: 0, reduceReturning: { $0 + $1 }, feedbacks: [.input(input)],
      monitor: Self.monitor(kind, sentinel: Sentinel(freed), log: log) { event in
        guard event == 1 else { return }
        input.send(2)  // queued behind this reduction
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
          let taken = system.value
          system.value = nil
          _ = consume taken
          done.signal()
        }
        // A guard against a deadlock only: the release must not wait for this report.
        if done.wait(timeout: .now() + 30) == .timedOut { log.append("the release waited for the report") }
      })
    input.send(1)
    input.send(3)
    #expect(log.entries == ["reduced 1", "discarded 2 systemStopped", "stopped"])
    #expect(!log.entries.contains("the release waited for the report"))
    #expect(!log.entries.contains { $0.hasPrefix("corrupt") })
    #expect(freed.entries.count == 1)
  }

  @Test(
    "G2 events sent from inside the .reduced report are queued and reduced after it, in order", arguments: Kind.allCases
  )
  func reportSends(kind: Kind) {
    let log = Log<String>()
    let freed = Log<Int>()
    let system = Ref<System<Int, Int>>()
    let states = Log<Int>()
    system.value = System(
      initial: 0, reduceReturning: { $0 * 10 + $1 },
      monitor: Self.monitor(kind, sentinel: Sentinel(freed), log: log) { event in
        if event < 5 { system.value?.send(contentsOf: [event + 1]) }
      })
    let observation = system.value?.observe { states.append($0) }
    system.value?.send(1)
    #expect(log.entries == (1...5).map { "reduced \($0)" })
    #expect(states.entries == [0, 1, 12, 123, 1234, 12345])
    observation?.cancel()
    system.value = nil
    #expect(freed.entries.count == 1)
  }

  @Test(
    "G9 the .reduced report sends to a second system whose inline loop stops and releases the first",
    arguments: Kind.allCases)
  func releasedThroughAnotherSystemsInlineLoop(kind: Kind) {
    let log = Log<String>()
    let freed = Log<Int>()
    let system = Ref<System<Int, Int>>()
    let input = Input<Int>()
    let other = System<Int, Int>(initial: 0, reduceReturning: { $1 })
    let observation = other.observe { state in
      guard state == 1 else { return }
      system.value?.stop()
      let taken = system.value
      system.value = nil
      _ = consume taken
    }
    system.value = System(
      initial: 0, reduceReturning: { $0 + $1 }, feedbacks: [.input(input)],
      monitor: Self.monitor(kind, sentinel: Sentinel(freed), log: log) { event in
        if event == 1 { input.send(2) }  // queued behind this reduction
        other.send(event)
      })
    input.send(1)
    #expect(log.entries == ["reduced 1", "discarded 2 systemStopped", "stopped"])
    #expect(other.state == 1)
    #expect(freed.entries.count == 1)
    observation.cancel()
    other.stop()
  }

  @Test(
    "G14 a send refused as bufferFull on another thread reads the monitor while the loop is inside the .reduced report",
    arguments: Kind.allCases)
  func refusedSendReadsTheMonitorDuringTheReport(kind: Kind) {
    let log = Log<String>()
    let freed = Log<Int>()
    let system = Ref<System<Int, Int>>()
    system.value = System(
      initial: 0, reduceReturning: { $0 + $1 },
      environment: SystemEnvironment(eventBuffer: .dropNewest(limit: 0)),
      monitor: Self.monitor(kind, sentinel: Sentinel(freed), log: log) { event in
        guard event == 1 else { return }
        let done = DispatchSemaphore(value: 0)
        Thread.detachNewThread {
          system.value?.send(100)  // the loop is busy and holds none: dropped, reported there
          done.signal()
        }
        if done.wait(timeout: .now() + 30) == .timedOut { log.append("the refused send waited for the report") }
      })
    system.value?.send(1)
    #expect(log.entries == ["discarded 100 bufferFull", "reduced 1"])
    system.value = nil
    #expect(freed.entries.count == 1)
  }

  @Test(
    "G9 stop() and release from another thread race with a drain that reports every reduction: a prefix is reduced, in order, nothing crashes",
    arguments: Kind.allCases)
  func stopAndReleaseRaceWithReports(kind: Kind) {
    for _ in 0..<50 {
      let log = Log<String>()
      let freed = Log<Int>()
      let system = Ref<System<Int, Int>>()
      let input = Input<Int>()
      system.value = System(
        initial: 0, reduceReturning: { $0 &+ $1 }, feedbacks: [.input(input)],
        monitor: Self.monitor(kind, sentinel: Sentinel(freed), log: log) { _ in })
      DispatchQueue.concurrentPerform(iterations: 3) { index in
        switch index {
        case 0:
          for event in 0..<300 { input.send(event) }
        case 1:
          system.value?.stop()
        default:
          let taken = system.value
          system.value = nil
          _ = consume taken
        }
      }
      let reduced = log.entries.compactMap { $0.hasPrefix("reduced ") ? Int($0.dropFirst(8)) : nil }
      #expect(reduced == Array(0..<reduced.count), "not a prefix, in order: \(reduced)")
      #expect(!log.entries.contains { $0.hasPrefix("corrupt") })
      #expect(freed.entries.count == 1)
    }
  }

  @Test(
    "G10 G9 a main-actor system whose .reduced report stops and releases it, with events queued from another thread",
    arguments: Kind.allCases)
  @MainActor
  func mainActorReportReleases(kind: Kind) {
    let log = Log<String>()
    let freed = Log<Int>()
    let system = Ref<System<Int, Int>>()
    let input = Input<Int>()
    system.value = System(
      initial: 0, reduceReturning: { $0 + $1 }, feedbacks: [.input(input)], isolation: .mainActor,
      monitor: Self.monitor(kind, sentinel: Sentinel(freed), log: log) { event in
        guard event == 2 else { return }
        system.value?.stop()
        let taken = system.value
        system.value = nil
        _ = consume taken
      })
    // Sent from another thread while this test holds the main actor: all
    // three wait for it, and no hop drains them before this one does.
    let sent = DispatchSemaphore(value: 0)
    Thread.detachNewThread {
      for event in 1...3 { input.send(event) }
      sent.signal()
    }
    sent.wait()
    system.value?.processQueuedEvents()
    #expect(log.entries == ["reduced 1", "reduced 2", "discarded 3 systemStopped", "stopped"])
    #expect(system.value == nil)
    #expect(freed.entries.count == 1)
  }
}
