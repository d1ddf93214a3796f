import FeedbackLoop
import Foundation
import Testing

extension Reliability {
  /// A read of a system's state on the thread that is running its reducer,
  /// reached through a send from the reducer to another, idle system (whose
  /// loop then runs inline, on the same thread). The read would wait for a
  /// reduction that waits for the read: it stops the program with a message
  /// instead (found by the red team: it hung, before and after the
  /// optimistic reads).
  @Suite("Nested reads")
  struct NestedReadTests {
    @Test(
      "G15 a read on the thread running the system's own reducer, reached through another system, stops with a clear message (bitwise-copyable state)"
    )
    func readInsideItsOwnReducerStops() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        Self.readInsideOwnReducer(initial: 0) { state, event in state += event }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("read during its own reducer"), "stderr: \(message)")
    }

    @Test(
      "G15 a read on the thread running the system's own reducer, reached through another system, stops with a clear message (state with a reference)"
    )
    func readInsideItsOwnReducerStopsWithReferences() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        Self.readInsideOwnReducer(initial: [Int]()) { state, event in state.append(event) }
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("read during its own reducer"), "stderr: \(message)")
    }

    /// A system whose reducer, after `step`, sends to an idle system whose
    /// observer reads the first system's state; sends it one event. (An exit
    /// test's body cannot capture, so each test calls this with its state.)
    static func readInsideOwnReducer<State: Sendable>(
      initial: State, step: @escaping @Sendable (inout State, Int) -> Void
    ) {
      let inner = System<Int, Int>(initial: 0, reduce: { state, event in state = event })
      let outer = Locked<System<State, Int>?>(nil)
      let observation = inner.observe { _ in _ = outer.current?.state }
      let system = System<State, Int>(
        initial: initial,
        reduce: { state, event in
          step(&state, event)
          inner.send(event)
        })
      outer.withLock { $0 = system }
      system.send(1)
      _ = observation
    }

    @Test("G15 the same read from an observer of the outer system (after its reducer) returns the new state")
    func readAfterTheReducerReturns() {
      let seen = Locked<[Int]>([])
      let outer = Locked<System<Int, Int>?>(nil)
      let inner = System<Int, Int>(initial: 0, reduce: { state, event in state = event })
      let innerObservation = inner.observe { _ in
        if let outer = outer.current { seen.withLock { $0.append(outer.state) } }
      }
      let system = System<Int, Int>(initial: 0, reduce: { state, event in state += event })
      let outerObservation = system.observe { value in if value > 0 { inner.send(value) } }
      outer.withLock { $0 = system }
      system.send(1)
      system.send(2)
      #expect(seen.current == [1, 3])
      innerObservation.cancel()
      outerObservation.cancel()
      outer.withLock { $0 = nil }
      system.stop()
      inner.stop()
    }
  }
}
