import Testing

@testable import FeedbackLoop

/// The loop's raw buffers check their indices in debug builds: an index out
/// of bounds stops the program with a message, where an optimized build
/// would read or write past the buffer. Each test breaks an invariant on
/// purpose, in a process of its own.
@Suite("Raw index checks")
struct RawIndexChecksTests {
  // Assertions stop a program only in debug builds (the library is built in
  // the configuration of the tests); exit tests run on these platforms.
  #if DEBUG && (os(macOS) || os(Linux) || os(Windows))
    @Test("the owner's queue stops at a slot out of its buffer, in debug builds")
    func localQueueChecksItsSlots() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        var queue = LocalQueue<Int>()
        queue.append(1)
        // Four places; a front past them, as a broken ring would leave it.
        queue.head = queue.capacity + 3
        _ = queue.popFirst()
        print("read past the buffer")
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("LocalQueue: head 7 out of 0..<4"), "stderr: \(message)")
    }

    @Test("an effect's event whose feedback is out of range stops before the watermarks are read, in debug builds")
    func effectTokenChecksItsFeedback() async {
      let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
        let system = System<Int, Int>(initial: 0, reduce: { state, event in state += event })
        // One past the watermarks of a system without feedbacks.
        system.core.submit(1, from: EffectToken(feedback: 1, number: 1))
        print("read past the watermarks")
      }
      let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
      #expect(message.contains("a token's feedback out of range"), "stderr: \(message)")
    }
  #endif
}
