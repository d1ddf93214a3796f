import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

enum HUDEvent: Sendable, Equatable {
  case tap, leave, back, tick(Int)
}

private func hudChart() throws -> Statechart<Int, HUDEvent> {
  try Statechart<Int, HUDEvent>("hud", initial: "shown") {
    ChartState("shown", initial: "visible") {
      Transition(on: .leave, to: "away")
      ChartState("visible") {
        Transition(on: .tap, to: "visible")
        Transition(after: .seconds(3), to: "hidden")
      }
      ChartState("hidden") { Transition(on: .tap, to: "visible") }
    }
    ChartState("away") { Transition(on: .back, to: "shown") }
  }
}

private func testSystem<Context: Sendable & Equatable, Event: Sendable>(
  _ chart: Statechart<Context, Event>, context: Context
) -> TestSystem<ChartSnapshot<Context>, ChartEvent<Event>> {
  let test = TestSystem(clock: TestClock(executor: ManualTaskExecutor()), exhaustivity: .off) { environment, monitor in
    chart.start(context: context, environment: environment, monitor: monitor)
  }
  return test
}

@Suite(.runsLeftoverJobs) struct StatechartTimeTests {
  @Test("G11 Delayed transition: taken after its delay on the injected clock")
  func delayFires() throws {
    let test = testSystem(try hudChart(), context: 0)
    test.advance(by: .milliseconds(2_999))
    #expect(test.state.activeLeaves == ["visible"])
    test.advance(by: .milliseconds(1))
    test.receive(where: { $0.event == nil })
    #expect(test.state.activeLeaves == ["hidden"])
    test.finish()
  }

  @Test("G4 Delayed transition: re-entering the state starts the delay again, the old one is cancelled")
  func delayRestartsOnReentry() throws {
    let test = testSystem(try hudChart(), context: 0)
    test.advance(by: .seconds(2))
    test.send(.event(.tap))
    test.advance(by: .seconds(2))
    #expect(test.state.activeLeaves == ["visible"])
    #expect(test.effectsInFlight.count == 1)
    test.advance(by: .seconds(1))
    test.receive(where: { $0.event == nil })
    #expect(test.state.activeLeaves == ["hidden"])
    test.finish()
  }

  @Test("G4 Delayed transition: cancelled when its state is left before it expires")
  func delayCancelledOnExit() throws {
    let test = testSystem(try hudChart(), context: 0)
    test.advance(by: .seconds(1))
    test.send(.event(.leave))
    #expect(test.effectsInFlight.isEmpty)
    test.advance(by: .seconds(10))
    #expect(test.state.activeLeaves == ["away"])
    test.send(.event(.back))
    #expect(test.state.activeLeaves == ["visible"])
    test.advance(by: .seconds(3))
    test.receive(where: { $0.event == nil })
    #expect(test.state.activeLeaves == ["hidden"])
    test.finish()
  }

  @Test("G4 Activity: started on entry, cancelled on exit, its late events dropped")
  func activityCancelledOnExit() throws {
    let chart = try Statechart<[Int], HUDEvent>("counter", initial: "counting") {
      ChartState("counting") {
        Activity { _ in
          .run { send in
            for second in 1...10 {
              try await send.clock.sleep(for: .seconds(1))
              send(.tick(second))
            }
          }
        }
        Transition(on: .leave, to: "stopped")
        Transition(
          on: "tick", matching: { if case .tick = $0 { true } else { false } },
          action: { log, event in
            if case .tick(let second) = event { log.append(second) }
          })
      }
      ChartState("stopped") {
        Transition(
          on: "tick", matching: { if case .tick = $0 { true } else { false } },
          action: { log, event in
            if case .tick(let second) = event { log.append(second) }
          })
      }
    }
    let test = testSystem(chart, context: [])
    test.advance(by: .seconds(2))
    test.receive(.event(.tick(1)))
    test.receive(.event(.tick(2)))
    #expect(test.state.context == [1, 2])
    test.send(.event(.leave))
    #expect(test.effectsInFlight.isEmpty)
    test.advance(by: .seconds(5))
    #expect(test.state.context == [1, 2])
    test.finish()
  }

  @Test("G1 The chart's initial configuration and entry actions are in place before the first event")
  func initialConfiguration() throws {
    let chart = try Statechart<[String], HUDEvent>("c", initial: "a") {
      ChartState("a", initial: "b") {
        OnEntry { $0.append("a") }; ChartState("b") { OnEntry { $0.append("b") } }
      }
    }
    let system = chart.start(context: [])
    #expect(system.state.context == ["a", "b"])
    #expect(system.state.activeStates == ["c", "a", "b"])
    system.stop()
  }
}
