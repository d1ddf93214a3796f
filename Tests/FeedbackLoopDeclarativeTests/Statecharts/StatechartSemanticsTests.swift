import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

enum Key: Sendable, Equatable {
  case a, b, c, go, back, stop, finish, other
}

/// A chart whose context is the log of what its actions did, in order.
typealias LogChart = Statechart<[String], Key>

private func run(_ chart: LogChart, _ events: Key...) -> ChartSnapshot<[String]> {
  var state = chart.initialState(context: [])
  for event in events { chart.reduce(&state, .event(event)) }
  return state
}

private func logged(_ name: String) -> OnEntry<[String], Key> {
  OnEntry { $0.append("enter \(name)") }
}

private func loggedExit(_ name: String) -> OnExit<[String], Key> {
  OnExit { $0.append("exit \(name)") }
}

@Suite(.runsLeftoverJobs) struct StatechartSemanticsTests {
  @Test("Hierarchy: a transition to a compound state enters its initial child, recursively")
  func compoundTargetEntersInitialChild() throws {
    let chart = try LogChart("c", initial: "idle") {
      ChartState("idle") { Transition(on: .go, to: "busy") }
      ChartState("busy", initial: "outer") {
        ChartState("outer", initial: "inner") { ChartState("inner") }
      }
    }
    #expect(run(chart, .go).activeStates == ["c", "busy", "outer", "inner"])
  }

  @Test("Hierarchy: an event the inner state does not handle is handled by its nearest ancestor")
  func ancestorsHandleWhatChildrenDoNot() throws {
    let chart = try LogChart("c", initial: "on") {
      ChartState("on", initial: "a") {
        Transition(on: .stop, to: "off")
        ChartState("a") { Transition(on: .go, to: "b") }
        ChartState("b")
      }
      ChartState("off")
    }
    #expect(run(chart, .go).activeLeaves == ["b"])
    #expect(run(chart, .go, .stop).activeLeaves == ["off"])
    #expect(run(chart, .stop).activeLeaves == ["off"])
  }

  @Test("Selection: a descendant's transition is taken before its ancestors' on the same event")
  func innermostTransitionWins() throws {
    let chart = try LogChart("c", initial: "on") {
      ChartState("on", initial: "a") {
        Transition(on: .go, to: "off")
        ChartState("a") { Transition(on: .go, to: "b") }
        ChartState("b")
      }
      ChartState("off")
    }
    #expect(run(chart, .go).activeLeaves == ["b"])
    #expect(run(chart, .go, .go).activeLeaves == ["off"])
  }

  @Test("Document order: the first enabled transition of a state in document order wins; a false guard passes")
  func guardsInDocumentOrder() throws {
    let chart = try LogChart("c", initial: "s") {
      ChartState("s") {
        Transition(on: .go, to: "never", guard: "isNever") { _, _ in false }
        Transition(on: .go, to: "first")
        Transition(on: .go, to: "second")
      }
      ChartState("first")
      ChartState("second")
      ChartState("never")
    }
    #expect(run(chart, .go).activeLeaves == ["first"])
  }

  @Test("Guards: a false guard in the child hands the event to the ancestor")
  func falseGuardFallsBackToAncestor() throws {
    let chart = try LogChart("c", initial: "on") {
      ChartState("on", initial: "a") {
        Transition(on: .go, to: "off")
        ChartState("a") { Transition(on: .go, to: "a", guard: "never") { _, _ in false } }
      }
      ChartState("off")
    }
    #expect(run(chart, .go).activeLeaves == ["off"])
  }

  @Test("Parallel regions: every region is entered and reacts to the same event")
  func parallelRegionsReactTogether() throws {
    let chart = try LogChart("c", initial: "p") {
      ParallelState("p") {
        ChartState("left", initial: "l1") {
          ChartState("l1") { Transition(on: .go, to: "l2") }
          ChartState("l2")
        }
        ChartState("right", initial: "r1") {
          ChartState("r1") { Transition(on: .go, to: "r2") }
          ChartState("r2")
        }
      }
    }
    #expect(run(chart).activeLeaves == ["l1", "r1"])
    #expect(run(chart, .go).activeLeaves == ["l2", "r2"])
  }

  @Test("Optimal enabled set: two regions' transitions that exit a common state, the first in document order wins")
  func conflictingTransitionsFirstInDocumentOrder() throws {
    let chart = try LogChart("c", initial: "p") {
      ParallelState("p") {
        ChartState("left", initial: "l1") { ChartState("l1") { Transition(on: .go, to: "x") } }
        ChartState("right", initial: "r1") { ChartState("r1") { Transition(on: .go, to: "y") } }
      }
      ChartState("x")
      ChartState("y")
    }
    #expect(run(chart, .go).activeLeaves == ["x"])
  }

  @Test("Optimal enabled set: a transition from a descendant preempts a conflicting one from its ancestor")
  func descendantPreemptsAncestor() throws {
    // Region "left" selects its parent's transition (l1 has none); region
    // "right"'s own transition exits the parallel too. The earlier one in
    // document order comes from "p" itself, an ancestor of r1's: r1's wins.
    let chart = try LogChart("c", initial: "p") {
      ParallelState("p") {
        Transition(on: .go, to: "x")
        ChartState("left", initial: "l1") { ChartState("l1") }
        ChartState("right", initial: "r1") { ChartState("r1") { Transition(on: .go, to: "y") } }
      }
      ChartState("x")
      ChartState("y")
    }
    #expect(run(chart, .go).activeLeaves == ["y"])
  }

  @Test("Order: exits innermost first, then transition actions, then entries outermost first")
  func exitActionEntryOrder() throws {
    let chart = try LogChart("c", initial: "a") {
      ChartState("a", initial: "a1") {
        loggedExit("a")
        ChartState("a1") {
          loggedExit("a1")
          Transition(on: .go, to: "b2", action: { log, _ in log.append("action") })
        }
      }
      ChartState("b", initial: "b1") {
        logged("b")
        ChartState("b1") { logged("b1") }
        ChartState("b2") { logged("b2") }
      }
    }
    #expect(run(chart, .go).context == ["exit a1", "exit a", "action", "enter b", "enter b2"])
  }

  @Test("Order: parallel regions are exited in reverse document order and entered in document order")
  func parallelEntryAndExitOrder() throws {
    let chart = try LogChart("c", initial: "p") {
      ParallelState("p") {
        Transition(on: .go, to: "q")
        ChartState("left", initial: "l") {
          loggedExit("left")
          ChartState("l") {
            logged("l"); loggedExit("l")
          }
        }
        ChartState("right", initial: "r") {
          loggedExit("right")
          ChartState("r") {
            logged("r"); loggedExit("r")
          }
        }
      }
      ChartState("q")
    }
    #expect(run(chart).context == ["enter l", "enter r"])
    #expect(run(chart, .go).context == ["enter l", "enter r", "exit r", "exit right", "exit l", "exit left"])
  }

  @Test("External self-transition: the state is exited and entered again")
  func selfTransitionReenters() throws {
    let chart = try LogChart("c", initial: "s") {
      ChartState("s") {
        logged("s"); loggedExit("s"); Transition(on: .go, to: "s")
      }
    }
    #expect(run(chart, .go).context == ["enter s", "exit s", "enter s"])
  }

  @Test("Targetless transition: its action runs, nothing is exited or entered")
  func targetlessTransition() throws {
    let chart = try LogChart("c", initial: "s") {
      ChartState("s") {
        logged("s"); loggedExit("s"); Transition(on: .go, action: { log, _ in log.append("action") })
      }
    }
    #expect(run(chart, .go).context == ["enter s", "action"])
  }

  @Test("Unhandled event: nothing changes (SCXML discards it)")
  func unhandledEventChangesNothing() throws {
    let chart = try LogChart("c", initial: "s") {
      ChartState("s") {
        logged("s"); Transition(on: .go, to: "t")
      }; ChartState("t")
    }
    let before = run(chart)
    #expect(run(chart, .other) == before)
  }

  @Test("Shallow history: re-entering resumes the last active child, its own children by default")
  func shallowHistory() throws {
    let chart = try LogChart("c", initial: "loaded") {
      ChartState("loaded", initial: "playing") {
        Transition(on: .stop, to: "stopped")
        ChartState("playing", initial: "normal") {
          Transition(on: .go, to: "paused")
          ChartState("normal") { Transition(on: .b, to: "fast") }
          ChartState("fast")
        }
        ChartState("paused") { Transition(on: .go, to: "playing") }
        HistoryState("resume")
      }
      ChartState("stopped") { Transition(on: .back, to: "resume") }
    }
    #expect(run(chart, .go, .stop, .back).activeLeaves == ["paused"])
    #expect(run(chart, .b, .stop, .back).activeLeaves == ["normal"])
  }

  @Test("Deep history: re-entering resumes every descendant that was active")
  func deepHistory() throws {
    let chart = try LogChart("c", initial: "loaded") {
      ChartState("loaded", initial: "playing") {
        Transition(on: .stop, to: "stopped")
        ChartState("playing", initial: "normal") {
          ChartState("normal") { Transition(on: .b, to: "fast") }
          ChartState("fast")
        }
        HistoryState("resume", deep: true)
      }
      ChartState("stopped") { Transition(on: .back, to: "resume") }
    }
    #expect(run(chart, .b, .stop, .back).activeLeaves == ["fast"])
  }

  @Test("History before the first exit: its default, else the parent's initial child")
  func historyDefault() throws {
    let chart = try LogChart("c", initial: "off") {
      ChartState("off") {
        Transition(on: .go, to: "resume"); Transition(on: .b, to: "plain")
      }
      ChartState("loaded", initial: "playing") {
        ChartState("playing")
        ChartState("paused")
        HistoryState("resume", default: "paused")
        HistoryState("plain")
      }
    }
    #expect(run(chart, .go).activeLeaves == ["paused"])
    #expect(run(chart, .b).activeLeaves == ["playing"])
  }

  @Test("Final state: entering it raises its parent's done event, taken in the same macrostep")
  func doneEventOfCompound() throws {
    let chart = try LogChart("c", initial: "intro") {
      ChartState("intro", initial: "counting") {
        Transition(whenDoneTo: "movie", action: { $0.append("done") })
        ChartState("counting") { Transition(on: .finish, to: "over") }
        FinalState("over") { logged("over") }
      }
      ChartState("movie") { logged("movie") }
    }
    let state = run(chart, .finish)
    #expect(state.activeLeaves == ["movie"])
    #expect(state.context == ["enter over", "done", "enter movie"])
  }

  @Test("Final state: a parallel state is done when every region is in a final state")
  func doneEventOfParallel() throws {
    let chart = try LogChart("c", initial: "p") {
      ParallelState("p") {
        Transition(whenDoneTo: "after")
        ChartState("left", initial: "l") {
          ChartState("l") { Transition(on: .a, to: "lf") }; FinalState("lf")
        }
        ChartState("right", initial: "r") {
          ChartState("r") { Transition(on: .b, to: "rf") }; FinalState("rf")
        }
      }
      ChartState("after")
    }
    #expect(run(chart, .a).activeLeaves == ["lf", "r"])
    #expect(run(chart, .a, .b).activeLeaves == ["after"])
  }

  @Test("Final state: a final child of the chart itself finishes the chart")
  func chartFinishes() throws {
    let chart = try LogChart("c", initial: "s") {
      ChartState("s") { Transition(on: .finish, to: "end") }; FinalState("end")
    }
    #expect(!run(chart).isFinished)
    #expect(run(chart, .finish).isFinished)
  }

  @Test("Run to completion: observers see the configuration after the done events, never the final state")
  func runToCompletion() throws {
    let chart = try LogChart("c", initial: "intro") {
      ChartState("intro", initial: "counting") {
        Transition(whenDoneTo: "movie")
        ChartState("counting") { Transition(on: .finish, to: "over") }
        FinalState("over")
      }
      ChartState("movie")
    }
    let seen = Recorder<[String]>()
    let system = chart.start(context: [])
    let observation = system.observe { seen.append($0.activeLeaves) }
    system.send(.finish)
    #expect(seen.all == [["counting"], ["movie"]])
    observation.cancel()
    system.stop()
  }

  @Test("Optimal enabled set: a targetless transition exits nothing, so it is never preempted (SCXML test 403c)")
  func targetlessIsNeverPreempted() throws {
    let chart = try LogChart("c", initial: "p") {
      ParallelState("p") {
        ChartState("left", initial: "l1") {
          ChartState("l1") { Transition(on: .go, to: "l2") }
          ChartState("l2")
        }
        ChartState("right", initial: "r1") {
          ChartState("r1") { Transition(on: .go, action: { log, _ in log.append("counted") }) }
        }
      }
    }
    let state = run(chart, .go)
    #expect(state.activeLeaves == ["l2", "r1"])
    #expect(state.context == ["counted"])
  }

  @Test("G2 Events sent from an activity while the chart reduces are reduced one at a time, in order")
  func activitySendsAreSerialised() throws {
    let chart = try LogChart("c", initial: "a") {
      ChartState("a") {
        Activity { _ in .send(contentsOf: [.b, .c]) }
        Transition(on: .b, action: { log, _ in log.append("b") })
        Transition(on: .c, to: "d", action: { log, _ in log.append("c") })
      }
      ChartState("d") { OnEntry { $0.append("enter d") } }
    }
    let system = chart.start(context: [])
    #expect(system.state.context == ["b", "c", "enter d"])
    system.stop()
  }
}
