import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// Red team: the reducer is released by the teardown (G9), so nothing may
  /// call it after a stop, wherever the stop comes from: the reducer itself,
  /// another system it sends to, other threads sending through an Input, a
  /// monitor's report; and a stop from any of them must not wait for the
  /// reduction it is called from.
  @Suite("Red team: reducer release")
  struct RedTeamReducerReleaseTests {
    typealias Box = HostileStopTests.Box

    @Test(
      "G9 stop() reached from the system's own reducer through another system's inline loop stops it without waiting for that reduction",
      .timeLimit(.minutes(1)))
    func stopFromOwnReducerThroughAnotherSystem() {
      let recorder = ActivityRecorder<Int, Int>()
      let box = Box<System<Int, Int>>()
      let inner = System<Int, Int>(initial: 0, reduceInPlace: { state, event in state = event })
      let observation = inner.observe { state in if state == 1 { box.value?.stop() } }
      let system = System<Int, Int>(
        initial: 0,
        reduceInPlace: { state, event in
          state += event
          inner.send(event)
        },
        monitor: recorder.monitor)
      box.set(system)
      system.send(1)
      #expect(system.isStopped)
      system.send(2)
      #expect(recorder.reducedEvents == [1])
      #expect(recorder.discarded.map(\.event) == [2])
      box.set(nil)
      observation.cancel()
      inner.stop()
    }

    @Test(
      "G9 the last reference released from the system's own reducer through another system's inline loop tears down once the reducer returns",
      .timeLimit(.minutes(1)))
    func releaseFromOwnReducerThroughAnotherSystem() {
      let reductions = Counter()
      let freed = Counter()
      let box = Box<System<Int, Int>>()
      let inner = System<Int, Int>(initial: 0, reduceInPlace: { state, event in state = event })
      let observation = inner.observe { state in if state == 1 { box.set(nil) } }
      let input = Input<Int>()
      do {
        let sentinel = Sentinel(freed)
        let system = System<Int, Int>(
          initial: 0,
          reduceInPlace: { state, event in
            _ = sentinel
            reductions.add()
            state += event
            inner.send(event)
          },
          feedbacks: [.input(input)])
        box.set(system)
      }
      input.send(1)
      #expect(freed.value == 1, "the reducer's captures outlived the release")
      input.send(2)
      #expect(reductions.value == 1)
      observation.cancel()
      inner.stop()
    }
  }
}
