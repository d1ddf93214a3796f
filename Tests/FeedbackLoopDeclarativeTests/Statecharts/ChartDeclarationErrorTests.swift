import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

private func message(_ build: () throws -> Statechart<Int, Key>) -> String? {
  do {
    _ = try build()
    return nil
  } catch let error as ChartDeclarationError {
    return error.message
  } catch {
    return "not a ChartDeclarationError: \(error)"
  }
}

@Suite(.runsLeftoverJobs) struct ChartDeclarationErrorTests {
  @Test("A transition to a state that is not declared names both states")
  func undeclaredTarget() {
    #expect(
      message {
        try Statechart("player", initial: "idle") {
          ChartState("idle") { Transition(on: .go, to: "playin") }
        }
      } == "statechart \"player\": the transition from \"idle\" on go goes to \"playin\", which is not declared")
  }

  @Test("A compound state without an initial child is named")
  func compoundWithoutInitial() {
    #expect(
      message {
        try Statechart("player", initial: "loaded") {
          ChartState("loaded") {
            ChartState("playing")
            ChartState("paused")
          }
        }
      } == "statechart \"player\": the compound state \"loaded\" has no initial child state (give `initial:`)")
  }

  @Test("An initial state that is not a child is named")
  func initialNotAChild() {
    #expect(
      message {
        try Statechart("player", initial: "loaded") {
          ChartState("loaded", initial: "stopped") { ChartState("playing") }
          ChartState("stopped")
        }
      } == "statechart \"player\": the initial state \"stopped\" of \"loaded\" is not one of its child states")
  }

  @Test("A history state outside a compound state is named, with where it is")
  func historyOutsideCompound() {
    #expect(
      message {
        try Statechart("player", initial: "idle") {
          ChartState("idle") { HistoryState("resume") }
        }
      } == "statechart \"player\": the history state \"resume\" is outside a compound state: it is in \"idle\", "
        + "which has no child state")
    #expect(
      message {
        try Statechart("player", initial: "idle") {
          ChartState("idle")
          HistoryState("resume")
        }
      } == "statechart \"player\": the history state \"resume\" is outside a compound state: it is in the chart's "
        + "top level")
  }

  @Test("Two parallel regions that declare the same state are both named")
  func sameStateInTwoRegions() {
    #expect(
      message {
        try Statechart("player", initial: "screen") {
          ParallelState("screen") {
            ChartState("video", initial: "shown") { ChartState("shown") }
            ChartState("hud", initial: "shown") { ChartState("shown") }
          }
        }
      } == "statechart \"player\": the state \"shown\" is declared in two parallel regions, \"video\" and \"hud\"")
  }

  @Test("A state declared twice is named")
  func declaredTwice() {
    #expect(
      message {
        try Statechart("player", initial: "idle") {
          ChartState("idle")
          ChartState("idle")
        }
      } == "statechart \"player\": the state \"idle\" is declared twice")
  }

  @Test("A guard on a final state is named")
  func guardOnFinal() {
    #expect(
      message {
        try Statechart("player", initial: "idle") {
          ChartState("idle") { Transition(on: .go, to: "end") }
          FinalState("end") { Transition(on: .back, to: "idle", guard: "again") { _, _ in true } }
        }
      } == "statechart \"player\": the final state \"end\" has a guarded transition: a final state is never left by "
        + "its own")
  }

  @Test("A delay on a final state is named")
  func delayOnFinal() {
    #expect(
      message {
        try Statechart("player", initial: "idle") {
          ChartState("idle") { Transition(on: .go, to: "end") }
          FinalState("end") { Transition(after: .seconds(1), to: "idle") }
        }
      } == "statechart \"player\": the final state \"end\" has a delayed transition: a final state is never left by "
        + "its own")
  }

  @Test("A chart larger than one 64-bit configuration is refused")
  func tooManyStates() {
    #expect(
      message {
        try Statechart("big", initial: "s0") {
          for index in 0..<70 { ChartState("s\(index)") }
        }
      } == "statechart \"big\": 70 states declared; a chart holds at most 63 (history states included), so that "
        + "its configuration fits in one 64-bit word beside its root")
  }

  @Test("A chart of 63 declared states, the documented bound, is built and reaches its last state")
  func sixtyThreeStates() throws {
    // 62 states in a ring, the last of which is a compound state holding
    // the 63rd: the last state takes the configuration's top bit.
    let chart = try Statechart<Int, Key>("ring", initial: "s0") {
      for index in 0..<61 { ChartState("s\(index)") { Transition(on: .go, to: "s\(index + 1)") } }
      ChartState("s61", initial: "last") {
        ChartState("last") { Transition(on: .go, to: "s0") }
      }
    }
    #expect(chart.stateIDs.count == 64)  // the root and 63 declared states
    let system = chart.start(context: 0)
    for _ in 0..<61 { system.send(.go) }
    #expect(system.state.activeStates == ["ring", "s61", "last"])
    #expect(system.state.isActive("last"))
    system.send(.go)
    #expect(system.state.activeStates == ["ring", "s0"])
    system.stop()
  }

  @Test("A chart of 64 declared states, one over the bound, is refused with the count and the bound")
  func sixtyFourStates() {
    // History states count: 60 + "s60" + "x" + its history "h" are 63.
    #expect(
      message {
        try Statechart("big", initial: "s0") {
          for index in 0..<60 { ChartState("s\(index)") }
          ChartState("s60", initial: "x") {
            ChartState("x")
            HistoryState("h")
          }
        }
      } == nil)
    #expect(
      message {
        try Statechart("big", initial: "s0") {
          for index in 0..<61 { ChartState("s\(index)") }
          ChartState("s61", initial: "x") {
            ChartState("x")
            HistoryState("h")
          }
        }
      } == "statechart \"big\": 64 states declared; a chart holds at most 63 (history states included), so that "
        + "its configuration fits in one 64-bit word beside its root")
    #expect(
      message {
        try Statechart("big", initial: "s0") {
          for index in 0..<64 { ChartState("s\(index)") }
        }
      } == "statechart \"big\": 64 states declared; a chart holds at most 63 (history states included), so that "
        + "its configuration fits in one 64-bit word beside its root")
  }

  @Test("A negative delay is refused with its state named; a zero and a one-nanosecond delay are declared")
  func negativeDelay() {
    func chart(waiting delay: Duration) throws -> Statechart<Int, Key> {
      try Statechart("toast", initial: "shown") {
        ChartState("shown") { Transition(after: delay, to: "hidden") }
        ChartState("hidden")
      }
    }
    #expect(
      message { try chart(waiting: .nanoseconds(-1)) }
        == "statechart \"toast\": the delayed transition from \"shown\" waits \(Duration.nanoseconds(-1)), "
        + "a negative delay; give a delay of zero or more")
    #expect(message { try chart(waiting: .seconds(Int64.min)) }?.contains("a negative delay") == true)
    #expect(message { try chart(waiting: .zero) } == nil)
    #expect(message { try chart(waiting: .nanoseconds(1)) } == nil)
  }
}
