import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoop

/// `TrackedSet` as a set (`Set`'s semantics) and as a log of its changes:
/// what a reader learns after each kind of change, and that a system's
/// reducer changes it in place, which is what makes the keyed feedback over
/// it O(1) per change.
@Suite(.runsLeftoverJobs) struct TrackedSetTests {
  @Test("A TrackedSet behaves as a Set: insert, remove, update, the set operations, equality and hashing")
  func setSemantics() {
    var set: TrackedSet<Int> = [1, 2, 3]
    #expect(set.insert(4) == (true, 4))
    #expect(set.insert(4) == (false, 4))
    #expect(set.remove(1) == 1)
    #expect(set.remove(1) == nil)
    #expect(set.update(with: 5) == nil)
    #expect(set.update(with: 5) == 5)
    #expect(set.elements == [2, 3, 4, 5])
    #expect(set.count == 4 && !set.isEmpty && set.contains(3) && !set.contains(1))
    #expect(Set(set) == [2, 3, 4, 5])
    let other: TrackedSet = [4, 5, 6]
    #expect(set.union(other).elements == [2, 3, 4, 5, 6])
    #expect(set.intersection(other).elements == [4, 5])
    #expect(set.symmetricDifference(other).elements == [2, 3, 6])
    #expect(set.subtracting(other).elements == [2, 3])
    var changed = set
    changed.formUnion(other)
    #expect(changed.elements == [2, 3, 4, 5, 6])
    changed.formIntersection([3, 4, 9])
    #expect(changed.elements == [3, 4])
    changed.formSymmetricDifference([4, 7])
    #expect(changed.elements == [3, 7])
    changed.subtract([3])
    #expect(changed.elements == [7])
    changed = []
    #expect(changed.isEmpty)
    #expect(set.elements == [2, 3, 4, 5], "copies are independent")
    #expect(TrackedSet([2, 3, 4, 5]) == set)
    #expect(TrackedSet([2, 3, 4, 5]).hashValue == set.hashValue)
    #expect(set.isSubset(of: [1, 2, 3, 4, 5]))
  }

  @Test("A TrackedSet encodes and decodes as its elements")
  func codable() throws {
    let set: TrackedSet = ["a", "b"]
    let data = try JSONEncoder().encode(set)
    #expect(try JSONDecoder().decode(Set<String>.self, from: data) == ["a", "b"])
    #expect(try JSONDecoder().decode(TrackedSet<String>.self, from: data) == set)
  }

  @Test("The log tells a reader the elements changed since its cursor, with repeats, and nothing for no change")
  func logReadsChanges() {
    var set: TrackedSet<Int> = [1, 2]
    let start = set.changeCursor
    #expect(isUnchanged(set.changes(since: start)))
    set.insert(3)
    set.insert(3)  // no change
    set.remove(1)
    set.insert(1)
    set.update(with: 2)  // no change of membership
    #expect(changed(set.changes(since: start)) == [3, 1, 1])
    let middle = set.changeCursor
    set.remove(2)
    #expect(changed(set.changes(since: middle)) == [2])
    #expect(isUnknown(set.changes(since: ChangeCursor())), "the initial cursor matches no storage")
  }

  @Test("The log cannot tell a reader that fell behind further than it goes, or that read another storage")
  func logUnknownBeyondItsReach() {
    var set = TrackedSet(0..<50)
    let start = set.changeCursor
    // The log keeps 32 changes for fewer than 128 elements, and drops the
    // older half at its limit.
    for key in 100..<132 { set.insert(key) }
    #expect(changed(set.changes(since: start)) == Array(100..<132))
    set.insert(132)
    #expect(isUnknown(set.changes(since: start)))

    let copy = set
    let beforeCopy = set.changeCursor
    set.insert(1_000)  // shared storage: the change copies it, with a new identity and an empty log
    #expect(isUnknown(set.changes(since: beforeCopy)))
    #expect(copy.count == 83 && set.count == 84)

    var replaced = set
    let beforeRemoveAll = replaced.changeCursor
    replaced = []
    #expect(isUnknown(replaced.changes(since: beforeRemoveAll)))
  }

  @Test("A system's reducer changes the TrackedSet in place: the keyed feedback keeps no copy of it")
  func reducerChangesInPlace() {
    let system = System(
      initial: TrackedSet(0..<1_000),
      reduce: { (state: inout TrackedSet<Int>, event: Int) in
        state.remove(event)
        state.insert(event + 1_000)
      },
      feedbacks: [.requests({ $0 }) { _ in .none }])
    let identity = system.state.changeCursor.identity
    for event in 0..<500 { system.send(event) }
    let after = system.state.changeCursor
    #expect(after.identity == identity, "a copy kept by the feedback would make each change copy the set")
    #expect(after.generation == 1_000)
    system.stop()
  }

  func isUnchanged(_ reading: ChangeLogReading<Int>) -> Bool {
    if case .unchanged = reading { return true }
    return false
  }

  func isUnknown(_ reading: ChangeLogReading<Int>) -> Bool {
    if case .unknown = reading { return true }
    return false
  }

  func changed(_ reading: ChangeLogReading<Int>) -> [Int]? {
    if case .changed(let keys) = reading { return Array(keys) }
    return nil
  }
}
