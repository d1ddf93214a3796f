import FeedbackLoopDeclarative

/// The player as a statechart: loading, then loaded, made of three
/// regions: the video (playing or paused, with history), the HUD (hidden
/// 3 s after the last interaction) and the skip-intro countdown.
package enum PlayerChart {
  package struct Context: Sendable, Equatable {
    package var secondsLeft = 0
    package var interactions = 0

    package init(secondsLeft: Int = 0, interactions: Int = 0) {
      self.secondsLeft = secondsLeft
      self.interactions = interactions
    }
  }

  package enum Event: Sendable, Equatable {
    case loaded, play, pause, tap, introStarted, skip, seekFinished, stop
  }

  package static let chart = try! Statechart<Context, Event>("player", initial: "loading") {
    ChartState("loading") { Transition(on: .loaded, to: "loaded") }
    ParallelState("loaded") {
      Transition(on: .stop, to: "stopped")
      ChartState("video", initial: "playing") {
        ChartState("playing") { Transition(on: .pause, to: "paused") }
        ChartState("paused") { Transition(on: .play, to: "playing") }
        HistoryState("resume")
      }
      ChartState("hud", initial: "hudVisible") {
        ChartState("hudVisible") {
          OnEntry { $0.interactions += 1 }
          Transition(on: .play, to: "hudVisible")
          Transition(on: .pause, to: "hudVisible")
          Transition(on: .tap, to: "hudHidden")
          Transition(after: .seconds(3), to: "hudHidden")
        }
        ChartState("hudHidden") { Transition(on: .tap, to: "hudVisible") }
      }
      ChartState("skipIntro", initial: "beforeIntro") {
        ChartState("beforeIntro") { Transition(on: .introStarted, to: "countdown") }
        ChartState("countdown", initial: "ticking") {
          OnEntry { $0.secondsLeft = 10 }
          Transition(on: .skip, to: "skipping")
          ChartState("ticking") {
            Transition(after: .seconds(1), to: "ticking", guard: "secondsLeft > 1", { $0.secondsLeft > 1 }) {
              $0.secondsLeft -= 1
            }
            Transition(after: .seconds(1), to: "skipping", action: { $0.secondsLeft = 0 })
          }
        }
        ChartState("skipping") { Transition(on: .seekFinished, to: "introSkipped") }
        FinalState("introSkipped")
      }
    }
    ChartState("stopped") { Transition(on: .play, to: "resume") }
  }
}
