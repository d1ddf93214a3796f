import FeedbackLoop
import FeedbackLoopTesting
import Testing

@Suite("Events from inputs and stream feedbacks are received like effects' events", .runsLeftoverJobs)
struct EventSourcesTests {
  enum Event: Equatable, Sendable {
    case typed(String)
    case counted(Int)
  }

  struct State: Equatable, Sendable {
    var text = ""
    var length = 0
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .typed(let text): state.text = text
    case .counted(let length): state.length = length
    }
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func anEventSentThroughAnInputIsReceived() {
    let keyboard = Input<Event>()
    let editor = TestSystem(initial: State(), reduce: Self.reduce, feedbacks: [.input(keyboard)])
    keyboard.send(.typed("hi"))
    editor.receive(.typed("hi")) { $0.text = "hi" }
    editor.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aStreamFeedbackAnswersEachStateAndItsEventsAreReceived() {
    let editor = TestSystem(
      initial: State(), reduce: Self.reduce,
      feedbacks: [
        Feedback.events({ states in
          states.filter { $0.length != $0.text.count }.map { Event.counted($0.text.count) }
        })
      ])
    editor.send(.typed("four")) { $0.text = "four" }
    editor.receive(.counted(4)) { $0.length = 4 }
    editor.send(.typed("seven")) { $0.text = "seven" }
    editor.receive(.counted(5)) { $0.length = 5 }
    editor.finish()
  }
}
