import FeedbackLoop
import FeedbackLoopCycle
import FeedbackLoopTesting
import Testing

/// Commands as values: a recording of frames verified, reversed, throttled,
/// filtered, spliced and replayed.
@Suite(.runsLeftoverJobs) struct FilmTests {
  let film = Film([0, 1, 2, 3, 4, 5])

  @Test("verified: the first frame that breaks an invariant, or none")
  func verified() throws {
    #expect(film.firstViolation { $0 >= 0 } == nil)
    let violation = try #require(film.firstViolation { $0 < 3 })
    #expect(violation.offset == 3)
    #expect(violation.frame == 3)
  }

  @Test("reversed, filtered, spliced")
  func reversedFilteredSpliced() {
    #expect(film.reversed().frames == [5, 4, 3, 2, 1, 0])
    #expect(film.filtered { $0 % 2 == 0 }.frames == [0, 2, 4])
    #expect(Film([0, 1, 4]).spliced(Film([2, 3]), at: 2).frames == [0, 1, 2, 3, 4])
    #expect(Film([1]).spliced(Film([0]), at: 0).frames == [0, 1])
  }

  @Test("throttled: one frame in n, always ending where the film ends")
  func throttled() {
    #expect(film.throttled(keepingOneIn: 2).frames == [0, 2, 4, 5])
    #expect(film.throttled(keepingOneIn: 5).frames == [0, 5])
    #expect(film.throttled(keepingOneIn: 1) == film)
    #expect(Film<Int>([]).throttled(keepingOneIn: 3).frames.isEmpty)
  }

  @Test("recorded through the monitor hook, then replayed through the router as an animation")
  func recordedAndReplayed() {
    let keys = RecordingDriver<Int, Animated.Key>()
    let recorder = FilmRecorder<Int>()
    let replay = RecordingDriver<Int, Film<Int>>()
    let router = Router(seed: 0, frameRate: FrameRate(framesPerSecond: 10)) { _ in
      [
        Wire(Animated.keys, driver: keys, model: { $0 }, events: Animated.filter),
        Wire("replay", driver: replay, model: { _ in 0 }, events: { film, _ in film.replayed() }),
      ]
    }
    let app = TestSystem(exhaustivity: .off) { environment, monitor in
      router.start(environment: environment, monitor: .combining([monitor, recorder.monitor]))
    }
    app.send(.driver(Animated.keys, .animateTo(3)))
    app.advance(by: .seconds(1))
    #expect(recorder.film.frames == [0, 1, 2, 3])
    app.send(.driver("replay", recorder.film.reversed()))
    app.advance(by: .seconds(1))
    #expect(app.state.frame == 0)
    // The reversed film starts with 3, the frame shown: it plays again, and
    // is recorded again; the screen, whose model is unchanged, skips it.
    #expect(recorder.film.frames == [0, 1, 2, 3, 3, 2, 1, 0])
    #expect(keys.renders == [0, 1, 2, 3, 2, 1, 0])
    app.finish()
  }

  @Test("the recorder records every frame shown, one equal to the one before it too, and no reduction that shows none")
  func recorderRecordsEveryFrame() {
    let recorder = FilmRecorder<Int>()
    let keys = RecordingDriver<Int, Int>()
    let router = Router(seed: 0) { _ in
      [Wire(DriverKey<Int>("keys"), driver: keys, model: { $0 }, events: { n, _ in n < 0 ? .unchanged : .frame(n) })]
    }
    let app = TestSystem(exhaustivity: .off) { environment, monitor in
      router.start(environment: environment, monitor: .combining([monitor, recorder.monitor]))
    }
    for n in [1, 1, -1, 2, 2, 2] { app.send(.driver(DriverKey<Int>("keys"), n)) }
    app.send(.travel(to: Reel(queue: [2], previous: [2])))
    app.send(.driverEnded("keys"))
    #expect(recorder.film.frames == [0, 1, 1, 2, 2, 2, 2])
    #expect(keys.renders == [0, 1, 2])
    app.finish()
  }

  @Test("replayed to a driver: each model rendered once, unchanged ones skipped")
  func replayedToDriver() {
    let screen = RecordingDriver<String, Never>()
    Film([1, 2, 2, 3, 13]).replay(to: screen) { $0 < 3 ? "low" : "high" }
    #expect(screen.renders == ["low", "high"])
  }
}
