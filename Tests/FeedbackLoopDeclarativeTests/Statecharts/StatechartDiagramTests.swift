import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

private func playerChart() throws -> Statechart<Int, Key> {
  try Statechart("player", initial: "loading") {
    ChartState("loading") { Transition(on: .go, to: "loaded") }
    ParallelState("loaded") {
      ChartState("video", initial: "playing") {
        ChartState("playing") { Transition(on: .a, to: "paused") }
        ChartState("paused") { Transition(on: .a, to: "playing") }
        HistoryState("resume")
      }
      ChartState("hud", initial: "visible") {
        ChartState("visible") { Transition(after: .seconds(3), to: "hidden") }
        ChartState("hidden") { Transition(on: .b, to: "visible") }
      }
      Transition(on: .stop, to: "ended")
    }
    FinalState("ended")
  }
}

@Suite(.runsLeftoverJobs) struct StatechartDiagramTests {
  @Test("Mermaid draws composite states, parallel regions, history and final states")
  func mermaidComposites() throws {
    #expect(
      try playerChart().diagram.mermaid == """
        stateDiagram-v2
            [*] --> loading
            loading
            state loaded {
                state video {
                    [*] --> playing
                    playing
                    paused
                    state "H" as resume
                }
                --
                state hud {
                    [*] --> visible
                    visible
                    hidden
                }
            }
            ended --> [*]
            loading --> loaded: go
            playing --> paused: a
            paused --> playing: a
            visible --> hidden: after 3.0 seconds
            hidden --> visible: b
            loaded --> ended: stop
            %% unreachable: resume

        """)
  }

  @Test("Graphviz draws composite states as clusters, regions dashed, arrows clipped at their border")
  func dotComposites() throws {
    let dot = try playerChart().diagram.dot
    #expect(dot.contains("  subgraph \"cluster_loaded\" {\n    label=\"loaded\";\n    subgraph \"cluster_video\" {"))
    #expect(dot.contains("      style=dashed;"))
    #expect(dot.contains("  \"loading\" -> \"playing\" [label=\"go\", lhead=\"cluster_loaded\"];"))
    #expect(dot.contains("  \"playing\" -> \"ended\" [label=\"stop\", ltail=\"cluster_loaded\"];"))
    #expect(dot.contains("\"ended\" [peripheries=2];"))
  }

  @Test("Reachability on a hierarchy: a state entered only by default, inside a region, is reached")
  func reachabilityOnHierarchy() throws {
    let diagram = try playerChart().diagram
    #expect(diagram.unreachableStates == ["resume"])
    #expect(diagram.statesWithNoWayOut.isEmpty)
  }

  @Test("Reachability on a hierarchy: an unreachable sibling and a stuck atomic state are reported")
  func unreachableAndStuck() throws {
    let chart = try Statechart<Int, Key>("c", initial: "a") {
      ChartState("a", initial: "a1") {
        ChartState("a1") { Transition(on: .go, to: "a2") }
        ChartState("a2")
        ChartState("orphan")
      }
    }
    #expect(chart.diagram.unreachableStates == ["orphan"])
    #expect(chart.diagram.statesWithNoWayOut == ["a2", "orphan"])
  }

  @Test("An ancestor's transition is a way out of its descendants")
  func ancestorTransitionIsAWayOut() throws {
    let chart = try Statechart<Int, Key>("c", initial: "a") {
      ChartState("a", initial: "a1") {
        Transition(on: .stop, to: "b")
        ChartState("a1")
      }
      ChartState("b") { Transition(on: .go, to: "a") }
    }
    #expect(chart.diagram.statesWithNoWayOut.isEmpty)
    #expect(chart.diagram.unreachableStates.isEmpty)
  }

  @Test("Reachability on a hierarchy: a history state a transition targets is reached")
  func targetedHistoryIsReached() throws {
    let chart = try Statechart<Int, Key>("chart", initial: "a") {
      ChartState("a", initial: "a1") {
        Transition(on: .stop, to: "b")
        ChartState("a1")
        HistoryState("back")
      }
      ChartState("b") { Transition(on: .go, to: "back") }
    }
    #expect(chart.diagram.unreachableStates.isEmpty)
  }

  @Test("A value pattern over a String state is named by its value, not its type")
  func stringStatesAreNamedByValue() {
    let transitions = Transitions<String, String> {
      From("StateM") { On("go", transitionTo: "StateN") }
      From("StateN") { On("back", transitionTo: "StateM") }
    }
    let diagram = transitions.diagram(initialState: "StateM")
    #expect(diagram.states == ["StateM", "StateN"])
    #expect(diagram.transitions.map(\.description) == ["StateM --go--> StateN", "StateN --back--> StateM"])
    #expect(diagram.statesWithNoWayOut.isEmpty)
  }
}
