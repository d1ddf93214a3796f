import FeedbackLoopTesting
import Testing
import VolumeExample

@Suite("Volume regulator: the Feedbacks README")
struct VolumeTests {
  @Test func fromTenTheVolumeRisesOneStepPerStateToTheTargetThenStaysThere() {
    let volume = TestSystem(
      initial: Volume.State(value: 10), reduceReturning: Volume.reduce, feedbacks: Volume.feedbacks(target: 15))
    for value in 11...15 {
      volume.receive(.increase) { $0.value = value }
    }
    #expect(volume.effectsInFlight.isEmpty)
    #expect(volume.now == TestClock.Instant(offset: .zero))
    volume.finish()
  }

  @Test func fromAboveTheTargetTheVolumeFallsToIt() {
    let volume = TestSystem(
      initial: Volume.State(value: 17), reduceReturning: Volume.reduce, feedbacks: Volume.feedbacks(target: 15))
    volume.receive(.decrease) { $0.value = 16 }
    volume.receive(.decrease) { $0.value = 15 }
    volume.finish()
  }

  @Test func aPersonWhoTurnsTheVolumeUpIsBroughtBackToTheTarget() {
    let volume = TestSystem(
      initial: Volume.State(value: 15), reduceReturning: Volume.reduce, feedbacks: Volume.feedbacks(target: 15))
    volume.send(.increase) { $0.value = 16 }
    volume.receive(.decrease) { $0.value = 15 }
    volume.send(.decrease) { $0.value = 14 }
    volume.receive(.increase) { $0.value = 15 }
    volume.finish()
  }

  @Test func atTheTargetNothingHappens() {
    let volume = TestSystem(
      initial: Volume.State(value: 15), reduceReturning: Volume.reduce, feedbacks: Volume.feedbacks(target: 15))
    #expect(volume.timeline.entries.count == 1)
    volume.finish()
  }

  @Test func theTransitions() {
    let transitions = TransitionAssertions(reduceReturning: Volume.reduce)
    transitions.assertThat(from: Volume.State(value: 10), on: .increase, newStateIs: Volume.State(value: 11))
    transitions.assertThat(from: Volume.State(value: 10), on: .decrease, newStateIs: Volume.State(value: 9))
  }
}
