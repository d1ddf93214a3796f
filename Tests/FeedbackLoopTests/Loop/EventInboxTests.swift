import Testing

@testable import FeedbackLoop

/// The event buffer's policy item by item, without threads or a system.
@Suite("Event inbox")
struct EventInboxTests {
  typealias Inbox = EventInbox<Int, Int>
  typealias Item = InboxItem<Int, Int>

  static let effect = EffectToken(feedback: 0, number: 1)

  static func events(_ inbox: Inbox) -> [Int] { inbox.items.elements.compactMap(\.event) }

  static func fill(_ inbox: inout Inbox, with events: [Int]) -> [Int] {
    events.compactMap { inbox.append(.event($0, .external)) }
  }

  @Test("G14 unbounded keeps every event, in order")
  func unbounded() {
    var inbox = Inbox(policy: .unbounded)
    defer { inbox.deallocate() }
    #expect(Self.fill(&inbox, with: Array(1...5)).isEmpty)
    #expect(Self.events(inbox) == [1, 2, 3, 4, 5])
  }

  @Test("G14 dropNewest at 0, 1 and 2 keeps the first `limit` and returns each later one", arguments: [0, 1, 2])
  func dropNewest(_ limit: Int) {
    var inbox = Inbox(policy: .dropNewest(limit: limit))
    defer { inbox.deallocate() }
    let dropped = Self.fill(&inbox, with: [1, 2, 3])
    #expect(Self.events(inbox) == Array([1, 2, 3].prefix(limit)))
    #expect(dropped == Array([1, 2, 3].dropFirst(limit)))
  }

  @Test("G14 dropOldest at 0, 1 and 2 keeps the last `limit` and returns each dropped one", arguments: [0, 1, 2])
  func dropOldest(_ limit: Int) {
    var inbox = Inbox(policy: .dropOldest(limit: limit))
    defer { inbox.deallocate() }
    let dropped = Self.fill(&inbox, with: [1, 2, 3])
    #expect(Self.events(inbox) == Array([1, 2, 3].suffix(limit)))
    #expect(dropped == Array([1, 2, 3].dropLast(limit)))
  }

  @Test("G14 work that is not an event never counts against a limit, nor is dropped")
  func nonEventsAreNotCounted() {
    var inbox = Inbox(policy: .dropNewest(limit: 1))
    defer { inbox.deallocate() }
    #expect(inbox.append(.event(1, .external)) == nil)
    #expect(inbox.append(.effectEnded(Self.effect, .finished)) == nil)
    #expect(inbox.append(.removeObserver(7)) == nil)
    #expect(inbox.append(.event(2, .external)) == 2)
    #expect(inbox.items.count == 3)
    #expect(inbox.queuedEvents == 1)
  }

  @Test("G4 G14 a dropped final event still ends its effect: an effectEnded takes its place")
  func droppedFinalEventEndsItsEffect() {
    var newest = Inbox(policy: .dropNewest(limit: 0))
    defer { newest.deallocate() }
    #expect(newest.append(.finalEvent(1, Self.effect)) == 1)
    var oldest = Inbox(policy: .dropOldest(limit: 1))
    defer { oldest.deallocate() }
    #expect(oldest.append(.finalEvent(1, Self.effect)) == nil)
    #expect(oldest.append(.event(2, .external)) == 1)
    for inbox in [newest, oldest] {
      #expect(
        inbox.items.elements.contains {
          if case .effectEnded(let token, .finished) = $0 { token.number == Self.effect.number } else { false }
        })
    }
    #expect(Self.events(oldest) == [2])
  }

  @Test("G14 taking items frees their places; takeAll empties the inbox and its count")
  func popAndTakeAll() {
    var inbox = Inbox(policy: .dropNewest(limit: 1))
    defer { inbox.deallocate() }
    #expect(inbox.append(.event(1, .external)) == nil)
    #expect(inbox.popFirst()?.event == 1)
    #expect(inbox.isEmpty)
    #expect(inbox.append(.event(2, .external)) == nil, "the place of a taken event is free again")
    #expect(inbox.append(.event(3, .external)) == 3)
    #expect(inbox.takeAll().compactMap(\.event) == [2])
    #expect(inbox.isEmpty)
    #expect(inbox.queuedEvents == 0)
    #expect(inbox.append(.event(4, .external)) == nil)
  }

  @Test("G2 moveAll hands every item over in order by swapping the buffers, and the inbox reuses the other one")
  func moveAllSwapsBuffers() {
    var inbox = Inbox(policy: .unbounded)
    defer { inbox.deallocate() }
    var queue = LocalQueue<Item>()
    defer { queue.deallocate() }
    queue.append(.event(0, .external))
    _ = queue.popFirst()
    let queueBuffer = queue.storage
    #expect(Self.fill(&inbox, with: [1, 2, 3]).isEmpty)
    let inboxBuffer = inbox.items.storage
    inbox.moveAll(into: &queue)
    #expect(queue.elements.compactMap(\.event) == [1, 2, 3])
    #expect(queue.storage == inboxBuffer, "the items moved with their buffer, not one by one")
    #expect(inbox.isEmpty && inbox.queuedEvents == 0)
    #expect(inbox.items.storage == queueBuffer, "the inbox keeps the queue's empty buffer for the next sends")
    #expect(Self.fill(&inbox, with: [4]).isEmpty)
    #expect(Self.events(inbox) == [4])
  }

  @Test("G14 dropOldest removes the oldest event from the middle of a ring that wrapped around")
  func dropOldestInWrappedRing() {
    var inbox = Inbox(policy: .dropOldest(limit: 3))
    defer { inbox.deallocate() }
    // Four places; the front moves to the third, so that the items wrap
    // around and the oldest event is second, with two behind it.
    #expect(Self.fill(&inbox, with: [1, 2]).isEmpty)
    #expect(inbox.popFirst()?.event == 1)
    #expect(inbox.popFirst()?.event == 2)
    #expect(inbox.append(.removeObserver(9)) == nil)
    #expect(Self.fill(&inbox, with: [3, 4, 5]).isEmpty)
    #expect(inbox.items.capacity == 4 && inbox.items.head == 2)
    #expect(inbox.append(.event(6, .external)) == 3)
    #expect(Self.events(inbox) == [4, 5, 6])
    #expect(inbox.items.count == 4)
    if case .removeObserver(9) = inbox.items[0] {
    } else {
      Issue.record("the observer's removal moved: \(inbox.items[0])")
    }
  }

  @Test("removing at any place of a ring that wrapped around keeps the others in order", arguments: 0..<6)
  func removeAtAnyPosition(_ position: Int) {
    var queue = LocalQueue<Int>()
    defer { queue.deallocate() }
    for number in 0..<8 { queue.append(number) }
    for _ in 0..<5 { _ = queue.popFirst() }
    for number in 8..<11 { queue.append(number) }
    // Eight places, the front at the sixth: 5, 6, 7 | 8, 9, 10.
    #expect(queue.capacity == 8 && queue.head == 5)
    var expected = Array(5..<11)
    #expect(queue.remove(at: position) == expected.remove(at: position))
    #expect(queue.elements == expected)
    queue.append(11)
    #expect(queue.elements == expected + [11])
  }
}
