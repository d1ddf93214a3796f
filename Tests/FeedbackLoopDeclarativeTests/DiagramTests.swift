import FeedbackLoop
import FeedbackLoopDeclarative
import FeedbackLoopTesting
import Testing

@Suite(.runsLeftoverJobs) struct DiagramTests {
  @Test func theLoadingExampleAsMermaid() {
    let diagram = Loader.system { _, _ in [] }.diagram
    #expect(
      diagram.mermaid == """
        stateDiagram-v2
            [*] --> LoadingState
            LoadingState --> LoadedState: DataIsLoaded
            LoadingState --> ErrorState: LoadingHasFailed
            LoadedState --> LoadingState: RefreshEvent
            ErrorState --> LoadingState: AnyEvent

        """)
    #expect(diagram.unreachableStates.isEmpty)
    #expect(diagram.statesWithNoWayOut.isEmpty)
  }

  @Test func theLoadingExampleAsGraphviz() {
    #expect(
      Loader.system { _, _ in [] }.diagram.dot == """
        digraph StateMachine {
          rankdir=LR;
          node [shape=box, style=rounded];
          "[*]" [shape=point, label=""];
          "[*]" -> "LoadingState";
          "LoadingState";
          "LoadedState";
          "ErrorState";
          "LoadingState" -> "LoadedState" [label="DataIsLoaded"];
          "LoadingState" -> "ErrorState" [label="LoadingHasFailed"];
          "LoadedState" -> "LoadingState" [label="RefreshEvent"];
          "ErrorState" -> "LoadingState" [label="AnyEvent"];
        }

        """)
  }

  @Test func theEnumExampleIsNamedByCases() {
    let diagram = Pages.declaration { _ in [] }.diagram
    #expect(
      diagram.mermaid == """
        stateDiagram-v2
            [*] --> loading
            loading --> loaded: loaded
            loading --> failed: failed
            loaded --> loading: refresh
            failed --> loading: AnyEvent

        """)
  }

  @Test func anyStateIsDrawnFromEveryStateItAppliesTo() {
    let diagram = MatchingRuleTests.lightTransitions.diagram(initialState: .off)
    #expect(diagram.states == ["off", "on", "broken"])
    #expect(
      diagram.transitions.map(\.description) == [
        "off --toggle--> on",
        "off --smash--> broken",
        "on --toggle--> off",
        "on --dim--> on",
        "on --smash--> broken",
        "broken --smash--> broken",
      ])
    #expect(diagram.statesWithNoWayOut == ["broken"])
    #expect(diagram.mermaid.hasSuffix("    %% no way out: broken\n"))
  }

  @Test func unreachableStatesAndStatesWithNoWayOutAreReported() {
    enum Step: Equatable, Sendable { case start, middle, end, orphan }
    enum Go: Equatable, Sendable { case next, back }
    let transitions = Transitions<Step, Go> {
      From(Step.start) { On(Go.next, transitionTo: Step.middle) }
      From(Step.middle) { On(Go.next, transitionTo: Step.end) }
      From(Step.orphan) { On(Go.back, transitionTo: Step.start) }
    }
    let diagram = transitions.diagram(initialState: .start)
    #expect(diagram.unreachableStates == ["orphan"])
    #expect(diagram.statesWithNoWayOut == ["end"])
    #expect(
      diagram.mermaid == """
        stateDiagram-v2
            [*] --> start
            start --> middle: next
            middle --> end: next
            orphan --> start: back
            %% unreachable: orphan
            %% no way out: end

        """)
    #expect(diagram.dot.contains("\"orphan\" [style=\"rounded,dashed\"];"))
    #expect(diagram.dot.contains("\"end\" [peripheries=2];"))
  }

  @Test func aTransitionThatAnExactOneShadowsIsNotDrawn() {
    let diagram = Transitions {
      From(MatchingRuleTests.Idle.self) {
        On(MatchingRuleTests.Start.self, transitionTo: MatchingRuleTests.Busy(by: "exact"))
      }
      From(AnyState.self) {
        On(MatchingRuleTests.Start.self, transitionTo: MatchingRuleTests.Idle())
      }
    }
    .diagram(initialState: MatchingRuleTests.Idle())
    #expect(diagram.transitions.map(\.description) == ["Idle --Start--> Busy", "Busy --Start--> Idle"])
  }

  @Test func theVolumeRegulatorHasOneStateThatOnlyLoops() {
    let diagram = Volume.system(initial: 10, target: 15).diagram
    #expect(
      diagram.mermaid == """
        stateDiagram-v2
            [*] --> VolumeState
            VolumeState --> VolumeState: IncreaseEvent
            VolumeState --> VolumeState: DecreaseEvent
            %% no way out: VolumeState

        """)
  }
}
