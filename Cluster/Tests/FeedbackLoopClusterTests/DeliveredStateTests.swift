import Foundation
import Testing

@testable import FeedbackLoopCluster

@Suite("Delivered state")
struct DeliveredStateTests {
  @Test("G2 a delivery at or below its sender's last sequence is reduced as nothing; a system's own events always are")
  func redeliveryIgnored() {
    var delivered = DeliveredState(state: [Int]())
    let append: (inout [Int], Int) -> Void = { $0.append($1) }
    delivered.reduce(Delivery(sender: "a", sequence: 1, event: 1), with: append)
    delivered.reduce(Delivery(sender: "b", sequence: 1, event: 10), with: append)
    delivered.reduce(Delivery(sender: "a", sequence: 1, event: 1), with: append)
    delivered.reduce(Delivery(sender: "a", sequence: 3, event: 3), with: append)
    delivered.reduce(Delivery(sender: "a", sequence: 2, event: 2), with: append)
    delivered.reduce(Delivery(sender: nil, sequence: 0, event: 7), with: append)
    delivered.reduce(Delivery(sender: nil, sequence: 0, event: 7), with: append)
    #expect(delivered.state == [1, 10, 3, 7, 7])
    #expect(delivered.lastSequences == ["a": 3, "b": 1])
  }

  @Test("a delivery that forgets gone senders drops their records before it is reduced, and only theirs")
  func forgettingDropsRecords() {
    var delivered = DeliveredState(state: [Int]())
    let append: (inout [Int], Int) -> Void = { $0.append($1) }
    delivered.reduce(Delivery(sender: "a", sequence: 4, event: 1), with: append)
    delivered.reduce(Delivery(sender: "b", sequence: 2, event: 2), with: append)
    delivered.reduce(Delivery(sender: "c", sequence: 7, event: 3, forgetting: ["a", "gone"]), with: append)
    #expect(delivered.lastSequences == ["b": 2, "c": 7])
    #expect(delivered.state == [1, 2, 3])
  }

  @Test("a delivery stores its forgotten senders only when it has some, and a journal written before them decodes")
  func forgettingCodable() throws {
    let plain = try JSONEncoder().encode(Delivery(sender: "a", sequence: 1, event: 5))
    #expect(!String(decoding: plain, as: UTF8.self).contains("forgetting"))
    let older = Data(#"{"sender":"a","sequence":1,"event":5}"#.utf8)
    #expect(try JSONDecoder().decode(Delivery<Int>.self, from: older) == Delivery(sender: "a", sequence: 1, event: 5))
    let own = Data(#"{"sequence":0,"event":5}"#.utf8)
    #expect(try JSONDecoder().decode(Delivery<Int>.self, from: own) == Delivery(sender: nil, sequence: 0, event: 5))
    let forgetting = Delivery(sender: "a", sequence: 2, event: 6, forgetting: ["b"])
    #expect(try JSONDecoder().decode(Delivery<Int>.self, from: JSONEncoder().encode(forgetting)) == forgetting)
  }
}
