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
}
