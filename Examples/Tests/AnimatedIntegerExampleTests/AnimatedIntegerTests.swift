import AnimatedIntegerExample
import CycleDrivers
import FeedbackLoopCycle
import FeedbackLoopTesting
import Synchronization
import Testing

final class Drawn: Sendable {
  let lines = Mutex<[String]>([])
  var all: [String] { lines.withLock { $0 } }
  func draw(_ line: String) { lines.withLock { $0.append(line) } }
}

@Suite("Animated integer: the seed's three timelines, key by key")
struct AnimatedIntegerTests {
  let frame = Duration.milliseconds(100)

  @Test func aKeyPressedMidFlightInterceptsTheAnimation() {
    let drawn = Drawn()
    let screen = AnimatedInteger.screen(draw: drawn.draw)
    let router = AnimatedInteger.router(screen: screen, seed: 1)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    screen.press(.animateTo(5))
    app.receive(.driver(AnimatedInteger.keys, .animateTo(5))) { $0 = Reel(queue: [1, 2, 3, 4, 5]) }
    app.advance(by: frame)
    app.receive(.tick) { $0 = Reel(queue: [2, 3, 4, 5], previous: [1]) }
    screen.press(.animateTo(0))
    app.receive(.driver(AnimatedInteger.keys, .animateTo(0))) { $0 = Reel(queue: [2, 1, 0], previous: [1]) }
    app.advance(by: frame)
    app.receive(.tick) { $0 = Reel(queue: [1, 0], previous: [2]) }
    app.advance(by: frame)
    app.receive(.tick) { $0 = Reel(queue: [0], previous: [1]) }
    app.finish()
    #expect(drawn.all == ["1 █", "2 ██", "1 █", "0 "])
  }

  @Test func aKeyPressedMidFlightAppendsOrRemoves() {
    let drawn = Drawn()
    let screen = AnimatedInteger.screen(draw: drawn.draw)
    let router = AnimatedInteger.router(screen: screen)
    let app = TestSystem(initial: router.initial, reduce: router.reduce, feedbacks: router.feedbacks)
    screen.press(.appendTo(3))
    app.receive(.driver(AnimatedInteger.keys, .appendTo(3))) { $0 = Reel(queue: [0, 1, 2, 3]) }
    app.advance(by: frame)
    app.receive(.tick) { $0 = Reel(queue: [1, 2, 3], previous: [0]) }
    screen.press(.appendTo(0))
    app.receive(.driver(AnimatedInteger.keys, .appendTo(0))) {
      $0 = Reel(queue: [1, 2, 3, 2, 1, 0], previous: [0])
    }
    app.advance(by: frame)
    app.receive(.tick) { $0 = Reel(queue: [2, 3, 2, 1, 0], previous: [1]) }
    screen.press(.cancel)
    app.receive(.driver(AnimatedInteger.keys, .cancel)) { $0 = Reel(queue: [2], previous: [1]) }
    app.advance(by: .seconds(1))
    app.finish()
    #expect(drawn.all == ["0 ", "1 █", "2 ██"])
  }
}
