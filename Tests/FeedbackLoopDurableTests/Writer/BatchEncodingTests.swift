import Foundation
import Testing

@testable import FeedbackLoopDurable

/// A batch cut into runs encoded on several threads is the batch encoded
/// in order, and its failure is the first by position, whichever run
/// reaches its own first.
@Suite("Batch encoding on several threads")
struct BatchEncodingTests {
  struct Refused: Error, Equatable { var element: Int }

  static func encode(refusing refused: Set<Int> = []) -> @Sendable (Int) throws -> Data {
    { element in
      if refused.contains(element) { throw Refused(element: element) }
      return Data("\(element)".utf8)
    }
  }

  @Test("every size around the split's thresholds, on 1 to 5 threads: the elements in order, each once")
  func splitKeepsOrder() throws {
    let minimum = BatchEncoding.minimumPerThread
    for count in [0, 1, minimum - 1, minimum, 2 * minimum - 1, 2 * minimum, 2 * minimum + 1, 1_000, 4_099] {
      for threads in 1...5 {
        let elements = Array(0..<count)
        let encoded = try BatchEncoding.encode(elements[...], threads: threads, Self.encode()).get()
        #expect(encoded == elements.map { Data("\($0)".utf8) }, "\(count) elements on \(threads) threads")
      }
    }
  }

  @Test("a slice that does not start at 0 is read from its own start")
  func sliceOffsets() throws {
    let elements = Array(0..<2_000)
    let slice = elements[300..<1_800]
    let encoded = try BatchEncoding.encode(slice, threads: 4, Self.encode()).get()
    #expect(encoded == slice.map { Data("\($0)".utf8) })
    let failure = try #require(
      BatchEncoding.encode(slice, threads: 4, Self.encode(refusing: [1_000])).failureValue)
    #expect(failure.offset == 700)
  }

  @Test("the first failure by position is named, though a later run failed too", arguments: [1, 2, 3, 4])
  func firstFailureWins(threads: Int) throws {
    let elements = Array(0..<1_000)
    // 100 is in the first run, 600 and 999 in later ones (on 2 or more threads).
    let failure = try #require(
      BatchEncoding.encode(elements[...], threads: threads, Self.encode(refusing: [999, 600, 100])).failureValue)
    #expect(failure.offset == 100)
    #expect(failure.error as? Refused == Refused(element: 100))
    let last = try #require(
      BatchEncoding.encode(elements[...], threads: threads, Self.encode(refusing: [999])).failureValue)
    #expect(last.offset == 999)
  }

  @Test("a batch too small to split is encoded on the calling thread")
  func smallBatchStaysOnTheCaller() throws {
    let caller = Thread.current
    let threads = ThreadSet()
    let elements = Array(0..<(2 * BatchEncoding.minimumPerThread - 1))
    _ = try BatchEncoding.encode(elements[...], threads: 4) { element in
      threads.insert(Thread.current)
      return Data([UInt8(truncatingIfNeeded: element)])
    }.get()
    #expect(threads.all == [ObjectIdentifier(caller)])
  }

  @Test("a map over runs: every item once, in order, for every count and number of runs")
  func mapKeepsOrder() {
    for count in [0, 1, 2, 3, 7, 100, 1_001] {
      for runs in 1...5 {
        let items = Array(0..<count)
        let calls = Counter()
        let mapped = BatchEncoding.map(items, runs: runs) { item in
          calls.increment()
          return "\(item)"
        }
        #expect(mapped == items.map { "\($0)" }, "\(count) items in \(runs) runs")
        #expect(calls.value == count)
      }
    }
  }

  final class Counter: @unchecked Sendable {
    // Sendable: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var count = 0
    func increment() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
  }

  final class ThreadSet: @unchecked Sendable {
    // Sendable: `identifiers` is guarded by `lock`.
    private let lock = NSLock()
    private var identifiers: Set<ObjectIdentifier> = []
    func insert(_ thread: Thread) { lock.withLock { _ = identifiers.insert(ObjectIdentifier(thread)) } }
    var all: Set<ObjectIdentifier> { lock.withLock { identifiers } }
  }
}

extension Result {
  fileprivate var failureValue: Failure? {
    if case .failure(let failure) = self { return failure }
    return nil
  }
}
