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
      } == "statechart \"big\": 71 states; a chart holds at most 63")
  }
}
