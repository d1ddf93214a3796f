import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoop

/// `TrackedDictionary` as a dictionary (`Dictionary`'s semantics) and as a
/// log of the keys written, which the keyed feedback by id reads.
@Suite(.runsLeftoverJobs) struct TrackedDictionaryTests {
  @Test("A TrackedDictionary behaves as a Dictionary: subscripts, keys, values, equality")
  func dictionarySemantics() {
    var dictionary: TrackedDictionary = ["a": 1, "b": 2]
    #expect(dictionary["a"] == 1 && dictionary["z"] == nil && dictionary.count == 2)
    dictionary["c"] = 3
    #expect(dictionary["a"] == 1)
    dictionary["a"] = 10
    #expect(dictionary["b"] == 2)
    dictionary["b"] = nil
    #expect(dictionary["b"] == nil)
    dictionary["b"] = nil
    dictionary["c"] = nil
    #expect(dictionary.dictionary == ["a": 10])
    #expect(Set(dictionary.keys) == ["a"] && Array(dictionary.values) == [10])
    #expect(dictionary.map { "\($0.key)=\($0.value)" } == ["a=10"])
    let copy = dictionary
    dictionary["d"] = 4
    #expect(copy.dictionary == ["a": 10], "copies are independent")
    #expect(TrackedDictionary(["a": 10, "d": 4]) == dictionary)
    #expect(TrackedDictionary(["a": 10, "d": 4]).hashValue == dictionary.hashValue)
    dictionary = [:]
    #expect(dictionary.isEmpty)
  }

  @Test("A TrackedDictionary encodes and decodes as its entries")
  func codable() throws {
    let dictionary: TrackedDictionary = ["a": 1]
    let data = try JSONEncoder().encode(dictionary)
    #expect(try JSONDecoder().decode([String: Int].self, from: data) == ["a": 1])
    #expect(try JSONDecoder().decode(TrackedDictionary<String, Int>.self, from: data) == dictionary)
  }

  @Test("The log holds every key written, even with an equal value; a removal of a missing key is no change")
  func logReadsKeys() {
    var dictionary: TrackedDictionary = ["a": 1, "b": 2]
    let start = dictionary.changeCursor
    dictionary["a"] = 1
    dictionary["c"] = 3
    dictionary["b"] = nil
    dictionary["missing"] = nil
    #expect(keys(dictionary.changes(since: start)) == ["a", "c", "b"])
    let beforeCopy = dictionary.changeCursor
    let copy = dictionary
    dictionary["a"] = 5  // shared storage: copied, with a new log
    #expect(keys(dictionary.changes(since: beforeCopy)) == nil)
    #expect(copy["a"] == 1)
  }

  @Test("A system's reducer changes the TrackedDictionary in place: the keyed feedback keeps no copy of it")
  func reducerChangesInPlace() {
    let system = System(
      initial: TrackedDictionary(Dictionary(uniqueKeysWithValues: (0..<1_000).map { ($0, 0) })),
      reduce: { (state: inout TrackedDictionary<Int, Int>, event: Int) in
        state[event] = nil
        state[event + 1_000] = event
        state[event + 1] = event
      },
      feedbacks: [.requests({ $0 }) { _, _, _ in .none }])
    let identity = system.state.changeCursor.identity
    for event in 0..<500 { system.send(event) }
    let after = system.state.changeCursor
    #expect(after.identity == identity, "a copy kept by the feedback would make each change copy the dictionary")
    #expect(after.generation == 1_500)
    system.stop()
  }

  @Test("A change through modifyValue of a key that is not there copies nothing, even while another value shares it")
  func modifyValueOfMissingKeyCopiesNothing() {
    var dictionary = TrackedDictionary(Dictionary(uniqueKeysWithValues: (0..<1_000).map { ($0, $0) }))
    let shared = dictionary  // a copy kept, as a published state or an observer keeps one
    let cursor = dictionary.changeCursor
    #expect(dictionary.modifyValue(forKey: 5_000) { $0 += 1 } == nil)
    #expect(dictionary.storage === shared.storage, "an event for a missing key copied the whole dictionary")
    #expect(keys(dictionary.changes(since: cursor)) == [], "the log, kept, says nothing changed")
    // A key that is there: copied once, with the change, and the copy kept apart.
    #expect(
      dictionary.modifyValue(forKey: 999) { value -> Int in
        value += 1
        return value
      } == 1_000)
    #expect(dictionary.storage !== shared.storage)
    #expect(dictionary[999] == 1_000 && shared[999] == 999)
    #expect(dictionary.count == 1_000 && shared.count == 1_000)
    // Unique now: a change stays in place, and a missing key still changes nothing.
    let unique = ObjectIdentifier(dictionary.storage)
    #expect(dictionary.modifyValue(forKey: 0) { $0 -= 1 } != nil)
    #expect(dictionary.modifyValue(forKey: -1) { $0 -= 1 } == nil)
    #expect(ObjectIdentifier(dictionary.storage) == unique && dictionary[0] == -1)
  }

  @Test("modifyValue on a storage shared by copies, snapshots and the dictionary itself changes only its own value")
  func modifyValueKeepsEveryCopyApart() {
    // Values that hold references, keys that collide in few buckets, and
    // removals between the changes: each copy must keep what it had.
    var generator = UInt64(0x9E37_79B9_7F4A_7C15)
    func next(_ bound: Int) -> Int {
      generator = generator &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
      return Int(truncatingIfNeeded: generator >> 33) % bound
    }
    var dictionary = TrackedDictionary<Int, [Int]>()
    var model: [Int: [Int]] = [:]
    var copies: [(TrackedDictionary<Int, [Int]>, [Int: [Int]])] = []
    var snapshots: [([Int: [Int]], [Int: [Int]])] = []
    for step in 0..<3_000 {
      let key = next(64) * 1_024
      switch next(6) {
      case 0: copies.append((dictionary, model))
      case 1: snapshots.append((dictionary.dictionary, model))
      case 2:
        dictionary[key] = [step]
        model[key] = [step]
      case 3:
        dictionary[key] = nil
        model[key] = nil
      default:
        let result = dictionary.modifyValue(forKey: key) { value -> Int in
          value.append(step)
          return value.count
        }
        #expect(result == model[key].map { $0.count + 1 })
        model[key]?.append(step)
      }
      if copies.count > 8 { copies.removeFirst() }
      if snapshots.count > 8 { snapshots.removeFirst() }
    }
    #expect(dictionary.dictionary == model)
    for (copy, expected) in copies { #expect(copy.dictionary == expected) }
    for (snapshot, expected) in snapshots { #expect(snapshot == expected) }
  }

  func keys<Key>(_ reading: ChangeLogReading<Key>) -> [Key]? {
    switch reading {
    case .unchanged: return []
    case .changed(let keys): return Array(keys)
    case .unknown: return nil
    }
  }
}
