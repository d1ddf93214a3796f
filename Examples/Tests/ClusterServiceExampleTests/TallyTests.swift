import ClusterServiceExample
import Testing

@Suite("The tally counts each number once")
struct TallyTests {
  static func reduced(_ numbers: [Int]) -> Tally {
    var tally = Tally()
    for number in numbers { Tally.reduce(&tally, .count(number)) }
    return tally
  }

  @Test func numbersInOrderAreAllCounted() {
    #expect(Self.reduced([1, 2, 3]) == Tally(counted: 3, last: 3))
  }

  @Test func aRetriedNumberIsADuplicateNotCountedAgain() {
    #expect(Self.reduced([1, 2, 2, 1, 3]) == Tally(counted: 3, last: 3, duplicates: 2))
  }

  @Test func aSkippedNumberIsAGap() {
    #expect(Self.reduced([1, 3, 4]) == Tally(counted: 3, last: 4, gaps: 1))
  }

  @Test func aMilestoneIsAnnouncedOnceReachedAndUntilRecorded() {
    var tally = Self.reduced(Array(1...9))
    #expect(tally.milestoneToAnnounce == nil)
    Tally.reduce(&tally, .count(10))
    #expect(tally.milestoneToAnnounce == 10)
    Tally.reduce(&tally, .count(11))
    #expect(tally.milestoneToAnnounce == 10)
    Tally.reduce(&tally, .announced(10))
    #expect(tally.milestoneToAnnounce == nil)
  }
}
