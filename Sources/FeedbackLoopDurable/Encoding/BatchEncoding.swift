import Dispatch
import Foundation

/// Encodes a batch of events for the writer, on several threads when the
/// batch is large.
///
/// The writer encodes a batch's events before the transaction that stores
/// them, so for one busy system the encoding, not the database, set the
/// pace (D1 in BENCHMARKS.md: Foundation's `JSONEncoder` took longer per
/// event than SQLite's insert). A large batch is cut into contiguous runs
/// encoded at the same time, one per core, each run's events written to
/// their own places: the batch is the same, in the same order. A codec is
/// `Sendable`, so it may be called from several threads at once. The split
/// is an offer, not a promise: `concurrentPerform` runs the runs on the
/// calling thread when no other is free (a red team counted one thread in
/// most takes of a suite running in parallel), so the batch then takes as
/// long as before, never longer by more than the runs' hand-over.
enum BatchEncoding {
  /// The events a thread must have for a batch to be split: below it, a
  /// thread's start and hand-over cost more than the encoding it takes.
  static let minimumPerThread = 128

  /// The threads a batch is split over at most: the cores, up to four (the
  /// writer's task waits for them, so more would only wait their turn).
  static let maximumThreads = min(max(ProcessInfo.processInfo.activeProcessorCount, 1), 4)

  /// An element whose encoding threw: the first in the batch's order.
  struct Failure: Error {
    var offset: Int
    var error: any Error
  }

  /// `elements` encoded in order, or the first of them (by position) whose
  /// encoding threw. Elements after a failure may be encoded too, when a
  /// later run had started; none is left out before it.
  static func encode<Element: Sendable>(
    _ elements: ArraySlice<Element>, threads: Int = maximumThreads,
    _ encode: @Sendable (Element) throws -> Data
  ) -> Result<[Data], Failure> {
    let count = elements.count
    let runs = min(max(threads, 1), count / minimumPerThread)
    guard runs > 1 else {
      var encoded: [Data] = []
      encoded.reserveCapacity(count)
      for (offset, element) in zip(0..., elements) {
        do {
          encoded.append(try encode(element))
        } catch {
          return .failure(Failure(offset: offset, error: error))
        }
      }
      return .success(encoded)
    }
    var encoded = [Data](repeating: Data(), count: count)
    var failures = [Failure?](repeating: nil, count: runs)
    encoded.withUnsafeMutableBufferPointer { encodedBuffer in
      failures.withUnsafeMutableBufferPointer { failuresBuffer in
        let encoded = RunPlaces(encodedBuffer.baseAddress!)
        let failures = RunPlaces(failuresBuffer.baseAddress!)
        DispatchQueue.concurrentPerform(iterations: runs) { run in
          for offset in count * run / runs..<count * (run + 1) / runs {
            do {
              encoded.base[offset] = try encode(elements[elements.startIndex + offset])
            } catch {
              failures.base[run] = Failure(offset: offset, error: error)
              return
            }
          }
        }
      }
    }
    // The runs are in order and each stopped at its first failure, so the
    // first run that failed holds the batch's first failure.
    if let failure = failures.lazy.compactMap({ $0 }).first { return .failure(failure) }
    return .success(encoded)
  }

  /// `transform` of each of `items`, in order, the items cut into at most
  /// `runs` contiguous runs done at the same time: the writer's systems,
  /// each taking and encoding its own batch (D2: a thousand systems' small
  /// batches, none of them large enough to be split).
  static func map<Item: Sendable, Output>(
    _ items: [Item], runs requested: Int, _ transform: @Sendable (Item) -> Output
  ) -> [Output] {
    let count = items.count
    let runs = min(max(requested, 1), count)
    guard runs > 1 else { return items.map(transform) }
    var outputs = [Output?](repeating: nil, count: count)
    outputs.withUnsafeMutableBufferPointer { buffer in
      let outputs = RunPlaces(buffer.baseAddress!)
      DispatchQueue.concurrentPerform(iterations: runs) { run in
        for index in count * run / runs..<count * (run + 1) / runs { outputs.base[index] = transform(items[index]) }
      }
    }
    return outputs.map { $0.unsafelyUnwrapped }
  }

  /// Where the runs write their results.
  private struct RunPlaces<Value>: @unchecked Sendable {
    // Sendable: each run writes only the elements of its own range (from
    // `count * run / runs` to the next run's start, which the runs do not
    // share) or its own slot (at `run`), and `concurrentPerform` returns
    // only after every run ended, so no element is written by two threads,
    // or read while written. The buffer outlives the runs (the
    // `withUnsafeMutableBufferPointer` call around them).
    let base: UnsafeMutablePointer<Value>

    init(_ base: UnsafeMutablePointer<Value>) { self.base = base }
  }
}
