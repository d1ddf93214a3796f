import Testing

@testable import FeedbackLoopMonitorClient

/// The connection's parts without a socket: cutting reads into lines, and
/// the bounded queue between the loop and the writing thread.
struct ConnectionPartsTests {
  @Test("a line cut across reads is whole once its end arrives; several in one read come in order; CR LF ends one")
  func linesAcrossReads() {
    var splitter = LineSplitter()
    func read(_ text: String) -> [String] {
      Array(text.utf8).withUnsafeBytes { splitter.lines(endedBy: $0) }
    }
    #expect(read(#"{"type":"wel"#) == [])
    #expect(splitter.pendingCount == 12)
    #expect(read("come\"}\n{\"a\":1}\r\n{\"b\"") == [#"{"type":"welcome"}"#, #"{"a":1}"#])
    #expect(read(":2}\n\n") == [#"{"b":2}"#, ""])
    #expect(splitter.pendingCount == 0)
  }

  @Test(
    "the queue drops a line past its capacity; a line without capacity always waits; finished, it empties then ends")
  func boundedQueue() {
    let queue = OutgoingLines()
    #expect(queue.append("hello") == .accepted)
    #expect(queue.append("a", capacity: 2) == .accepted)
    #expect(queue.append("b", capacity: 2) == .full)
    #expect(queue.append("rejected") == .accepted)
    #expect(queue.waitingCount == 3)
    #expect(queue.take() == ["hello", "a", "rejected"])
    queue.append("c")
    queue.finish()
    // After the end, a line is not kept (the connection is ending), and not counted as dropped.
    #expect(queue.append("d", capacity: 2) == .accepted)
    #expect(queue.take() == ["c"])
    #expect(queue.take() == nil)
  }
}
