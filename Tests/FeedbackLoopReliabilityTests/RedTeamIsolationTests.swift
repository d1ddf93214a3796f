import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// Red team: G10 for a main-actor system stopped off the main
  /// actor while the main actor sends to it.
  @Suite("Red team: isolation")
  struct RedTeamIsolationTests {
    /// See MainQueueProbe: `Thread.isMainThread` says nothing about
    /// isolation on Linux under the test runner.
    static var onMainQueue: Bool { MainQueueProbe.isOnMainActor }

    @Test(
      "G10 G9 a main-actor system stopped from a background thread while main-actor sends are in flight: teardown on the main actor, every event reduced or reported",
      .timeLimit(.minutes(1)))
    @MainActor
    func mainActorSystemStoppedFromBackground() async {
      #expect(Self.onMainQueue, "the probe does not see the main actor")
      for _ in 0..<20 {
        let offMain = Locked<[String]>([])
        let counts = ActivityCounts<Int, Int>()
        let checking = SystemMonitor<Int, Int> { activity in
          switch activity {
          case .eventDiscarded(_, .bufferFull), .eventDiscarded(_, .systemStopped): return
          default: if !Self.onMainQueue { offMain.withLock { $0.append("monitor \(activity)") } }
          }
        }
        let system = System(
          initial: 0, reduceReturning: { (state: Int, _: Int) in state + 1 }, isolation: .mainActor,
          monitor: .combining([counts.monitor, checking]))
        let sent = Counter()
        let stoppedOnMain = Locked<Bool?>(nil)
        let observation = system.observe(
          { _ in
            if !Self.onMainQueue { offMain.withLock { $0.append("observer") } }
          },
          onStop: { stoppedOnMain.withLock { $0 = Self.onMainQueue } })
        let ended = system.states
        let stopper = Task.detached {
          for _ in 0..<20 {
            sent.add()
            system.send(1)
          }
          system.stop()
        }
        // Main-actor sends, interleaved with the detached task's.
        for _ in 0..<200 {
          sent.add()
          system.send(1)
          await Task.yield()
        }
        await stopper.value
        for await _ in ended {}  // ends once the teardown has run
        // A send made now, after the teardown, must be reported too.
        sent.add()
        system.send(1)
        let current = counts.current
        #expect(offMain.current.isEmpty, "off the main actor: \(offMain.current)")
        #expect(stoppedOnMain.current == true)
        #expect(current.stopped == 1)
        #expect(current.reduced + current.discarded.values.reduce(0, +) == sent.value)
        observation.cancel()
      }
    }
  }
}
