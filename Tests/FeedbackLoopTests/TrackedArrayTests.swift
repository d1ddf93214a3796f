import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoop

/// `TrackedArray` as an array (`Array`'s semantics) and as a log of the
/// positions changed, which the element feedbacks read.
@Suite(.runsLeftoverJobs) struct TrackedArrayTests {
  @Test("A TrackedArray behaves as an Array: subscripts, append, removeLast, insert, remove, swapAt, sort")
  func arraySemantics() {
    var array: TrackedArray = [3, 1, 2]
    #expect(array.count == 3 && array[0] == 3 && Array(array) == [3, 1, 2])
    array[1] += 10
    array.append(7)
    #expect(array.elements == [3, 11, 2, 7])
    #expect(array.removeLast() == 7)
    array.insert(5, at: 0)
    #expect(array.elements == [5, 3, 11, 2])
    #expect(array.remove(at: 1) == 3)
    array.swapAt(0, 2)
    #expect(array.elements == [2, 11, 5])
    let copy = array
    array.sort()
    #expect(array.elements == [2, 5, 11])
    #expect(copy.elements == [2, 11, 5], "copies are independent")
    #expect(TrackedArray(repeating: 0, count: 2) == [0, 0])
    #expect(TrackedArray([1, 2]).hashValue == TrackedArray([1, 2]).hashValue)
    array.removeAll()
    #expect(array.isEmpty)
  }

  @Test("A TrackedArray encodes and decodes as its elements")
  func codable() throws {
    let array: TrackedArray = ["a", "b"]
    let data = try JSONEncoder().encode(array)
    #expect(try JSONDecoder().decode([String].self, from: data) == ["a", "b"])
    #expect(try JSONDecoder().decode(TrackedArray<String>.self, from: data) == array)
  }

  @Test("The log holds the positions set, appended and removed last; insert and remove restart it")
  func logReadsPositions() {
    var array = TrackedArray(repeating: 0, count: 10)
    let start = array.changeCursor
    array[4] = 1
    array.swapAt(2, 7)
    array.append(9)
    array.removeLast()
    #expect(positions(array.changes(since: start)) == [4, 2, 7, 10, 10])
    let beforeInsert = array.changeCursor
    array.insert(1, at: 0)
    #expect(isUnknown(array.changes(since: beforeInsert)))
    let afterInsert = array.changeCursor
    #expect(positions(array.changes(since: afterInsert)) == [])
    array.remove(at: 3)
    #expect(isUnknown(array.changes(since: afterInsert)))
    let beforeCopy = array.changeCursor
    let copy = array
    array[0] = 5  // shared storage: copied, with a new log
    #expect(isUnknown(array.changes(since: beforeCopy)))
    #expect(copy[0] == 1)
  }

  @Test(
    "The range replacements log as the changes they are made of: in place and at the end by position; a shift restarts the log"
  )
  func rangeReplacementsLogPositions() {
    var array: TrackedArray = [0, 1, 2, 3]
    let start = array.changeCursor
    array.replaceSubrange(1..<3, with: [7, 8])
    array.append(contentsOf: [4, 5])
    array.removeLast(2)
    #expect(positions(array.changes(since: start)) == [1, 2, 4, 5, 4, 5])
    let beforeShift = array.changeCursor
    array.removeFirst()
    #expect(isUnknown(array.changes(since: beforeShift)))
    #expect(array == [7, 8, 3])
    let beforeRemoveAll = array.changeCursor
    array.removeAll()
    #expect(isUnknown(array.changes(since: beforeRemoveAll)) && array.isEmpty)
  }

  func positions(_ reading: ChangeLogReading<Int>) -> [Int]? {
    switch reading {
    case .unchanged: return []
    case .changed(let positions): return Array(positions)
    case .unknown: return nil
    }
  }

  func isUnknown(_ reading: ChangeLogReading<Int>) -> Bool {
    if case .unknown = reading { return true }
    return false
  }
}
