import FeedbackLoop
import FeedbackLoopTesting
import Testing

@Suite("The volume regulator", .runsLeftoverJobs)
struct VolumeRegulatorTests {
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func fromTenTheVolumeRisesOneStepPerStateToTheTargetOfFifteenThenStaysStable() {
    let volume = TestSystem(
      initial: Volume.State(value: 10), reduceReturning: Volume.reduce, feedbacks: Volume.feedbacks(target: 15))
    for value in 11...15 {
      volume.receive(.increase) { $0.value = value }
    }
    // Stable: no event, no effect, and no time passed.
    #expect(volume.effectsInFlight.isEmpty)
    #expect(volume.now == TestClock.Instant(offset: .zero))
    volume.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func fromAboveTheTargetTheVolumeFallsOneStepPerStateToIt() {
    let volume = TestSystem(
      initial: Volume.State(value: 18), reduceReturning: Volume.reduce, feedbacks: Volume.feedbacks(target: 15))
    volume.receive(.decrease) { $0.value = 17 }
    volume.receive(.decrease) { $0.value = 16 }
    volume.receive(.decrease) { $0.value = 15 }
    volume.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func atTheTargetNothingHappens() {
    let volume = TestSystem(
      initial: Volume.State(value: 15), reduceReturning: Volume.reduce, feedbacks: Volume.feedbacks(target: 15))
    #expect(volume.timeline.entries.count == 1)  // started, and that is all
    volume.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func theTransitionsOfTheReducer() {
    let transitions = TransitionAssertions(reduceReturning: Volume.reduce)
    transitions.assertThat(from: Volume.State(value: 10), on: .increase, newStateIs: Volume.State(value: 11))
    transitions.assertThat(from: Volume.State(value: 15), on: .decrease, newStateIs: Volume.State(value: 14))
  }
}
