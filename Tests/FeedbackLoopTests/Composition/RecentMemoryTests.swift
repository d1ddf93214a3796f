import FeedbackLoop
import Testing

/// The by-id feedback finds the memory of the child an event wrote in place
/// by where the write was in the dictionary's buffer, not by hashing its id
/// again (`ByIDLeafRuntime.recent`, the children-by-id benchmark in BENCHMARKS.md). That table only
/// guesses: these tests make it guess wrong (a child gone and back under
/// the same id, at the same place; a dictionary that grew and moved its
/// buffer; many children in turn) and check that every child still gets its
/// own memory.
extension ComposedPathTests {
  @Test(
    "G4 G5 a child removed and added again under the same id, written in place each time: the new child has a memory of its own and starts its effect"
  )
  func test_G5_childBackUnderTheSameID() {
    let probe = Probe()
    probe.send(.add(1), .item(1, .load(5)), .item(1, .load(5)))
    #expect(probe.system.runningTaskCount == 1)
    // Removed in the event that wrote it in place: its effect is cancelled.
    probe.send(.item(1, .load(-1)))
    #expect(probe.system.state.items[1] == nil)
    // Child 2 first, so that its memory is likely made where the old
    // child 1's was freed: an entry left behind would now lead child 1's
    // writes to child 2's memory.
    probe.send(.add(2), .add(1), .item(1, .load(5)))
    // The same query as the old child's last one: only a memory of its own
    // starts the effect again; the old memory would keep it.
    #expect(probe.system.runningTaskCount == 2)
    probe.send(.item(1, .load(5)))
    #expect(probe.system.runningTaskCount == 2)
    probe.send(.item(2, .load(5)))
    #expect(probe.system.runningTaskCount == 3)
    let state = probe.finish()
    // The cancelled effect's late `.loaded(5)` is dropped: one, not two.
    #expect(state.items[1]?.loaded == [5])
    #expect(state.items[2]?.loaded == [5])
    #expect(probe.system.runningTaskCount == 0)
  }

  @Test(
    "G4 G5 the children's buffer copied (a state kept outside), a child written again, removed, then the dictionary grown: no memory is reached after it goes"
  )
  func test_G5_bufferCopiedThenChildRemoved() {
    let probe = Probe()
    probe.send(.add(1), .add(2), .item(1, .load(5)))
    // A copy kept outside: the next write copies the children's buffer, so
    // that child 1 is written at another address, found at another entry;
    // eight times, at eight addresses.
    var kept: [State] = []
    for request in 6..<14 {
      kept.append(probe.system.state)
      probe.send(.item(1, .load(request)), .item(1, .load(request)))
    }
    // Child 1 goes: its memory is freed, and no entry may still lead to it.
    probe.send(.item(1, .load(-1)))
    // Every effect ends, so that nothing else keeps child 1's memory.
    probe.gate.open()
    probe.harness.settle()
    // Growing the dictionary rebuilds the table, which visits every entry.
    for id in 3..<100 { probe.send(.add(id)) }
    probe.send(.item(2, .load(9)), .add(1), .item(1, .load(5)))
    let state = probe.finish()
    #expect(state.items[1]?.loaded == [5])
    #expect(state.items[2]?.loaded == [9])
    #expect(kept.map { $0.items[1]?.request } == [5] + Array(6..<13))
    #expect(probe.system.runningTaskCount == 0)
  }

  @Test(
    "G4 children added after the first writes in place, the dictionary growing and moving its buffer: each child's writes reach its own memory"
  )
  func test_G4_dictionaryGrowsBetweenWrites() {
    // Requests stay under 100: the parent's own reducer does more above.
    func first(_ id: Int) -> Int { id % 97 }
    func second(_ id: Int) -> Int { id % 97 + 1 }
    let probe = Probe()
    probe.send(.add(0), .add(1), .item(0, .load(first(0))), .item(1, .load(first(1))))
    for id in 2..<200 { probe.send(.add(id)) }
    for round in 0..<2 {
      for id in 0..<200 { probe.send(.item(id, .load(first(id)))) }
      // The same query again in the second round: each child keeps its effect.
      #expect(probe.system.runningTaskCount == 200, "round \(round)")
    }
    for id in stride(from: 0, to: 200, by: 3) { probe.send(.item(id, .load(second(id)))) }
    #expect(probe.system.runningTaskCount == 200 + 67)
    let state = probe.finish()
    for id in 0..<200 {
      #expect(state.items[id]?.loaded == [id % 3 == 0 ? second(id) : first(id)], "child \(id)")
    }
    #expect(probe.system.runningTaskCount == 0)
  }
}
