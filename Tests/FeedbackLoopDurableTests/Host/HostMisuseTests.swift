import FeedbackLoop
import FeedbackLoopDurable
import Foundation
import Testing

@Suite("Durable host misuse stops with a clear message")
struct HostMisuseTests {
  @Test("an idle time of zero stops with a clear message")
  func zeroIdleTime() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = DurableHost<Int, Int>(passivateAfter: .zero) { _ in fatalError("not restored") }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("DurableHost(passivateAfter:) needs a positive idle time"), "stderr: \(message)")
  }

  @Test("a memory bound below 1 stops with a clear message")
  func zeroBound() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = DurableHost<Int, Int>(maxLoaded: 0) { _ in fatalError("not restored") }
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("DurableHost(maxLoaded:) needs a bound of at least 1, not 0"), "stderr: \(message)")
  }
}
