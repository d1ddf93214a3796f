import FeedbackLoop
import Foundation
import Testing

/// A child lifted by id whose query stops the system, in a state that
/// changed several children at once: the pass ends at that child, as the
/// fan-out ends a pass at the feedback that stopped the system (G9).
@Suite struct ByIDStopMidPassTests {
  struct Item: Sendable, Equatable {
    var id: Int
    var value = 0
  }

  enum ItemEvent: Sendable { case set(Int) }

  struct Parent: Sendable, Equatable {
    var items: TrackedDictionary<Int, Item> = [1: Item(id: 1), 2: Item(id: 2), 3: Item(id: 3)]
  }

  enum ParentEvent: Sendable {
    case item(Int, ItemEvent)
    /// Writes every child in place, in the order of their ids: one change
    /// per child in the children's log.
    case setEach(Int)
    /// Replaces the dictionary: the children are read whole.
    case replace(Int)
  }

  /// The ids and values the children's queries were asked with, in order.
  final class Seen: @unchecked Sendable {
    // Sendable: `entries` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var entries: [(id: Int, value: Int)] = []
    func append(_ item: Item) { lock.withLock { entries.append((item.id, item.value)) } }
    var all: [(id: Int, value: Int)] { lock.withLock { entries } }
  }

  final class Holder: @unchecked Sendable {
    // Sendable: set before the first send and cleared after the last, on
    // the test's thread; read by the queries on the loop's, in between.
    var system: System<Parent, ParentEvent>?
  }

  static func system(seen: Seen, holder: Holder) -> System<Parent, ParentEvent> {
    let child = Feature<Item, ItemEvent>(
      name: "item", reducer: Reducer { state, event in if case .set(let value) = event { state.value = value } },
      feedbacks: [
        .query(
          { item in
            seen.append(item)
            if item.value == 7 { holder.system?.stop() }
            return item.value == 0 ? nil : item.value
          }, name: "value"
        ) { _ in .none }
      ])
    let toItem = ChildEventPath<ParentEvent, Int, ItemEvent>(
      embed: ParentEvent.item, extract: { if case .item(let id, let event) = $0 { (id, event) } else { nil } })
    let own = Reducer<Parent, ParentEvent> { state, event in
      switch event {
      case .setEach(let value): for id in [1, 2, 3] { state.items[id]?.value = value }
      case .replace(let value):
        state.items = TrackedDictionary([1: Item(id: 1, value: value), 2: Item(id: 2, value: value)])
      case .item: break
      }
    }
    let feature = Feature<Parent, ParentEvent>(name: "parent", reducer: own, feedbacks: [])
      .combined(with: child.lifted(children: \Parent.items, event: toItem))
    let system = System(initial: Parent(), feature: feature)
    holder.system = system
    return system
  }

  @Test("G9 a child's query by id that stops the system, among children changed one by one, is the last one asked")
  func stopAmongChildrenChangedInPlace() {
    let (seen, holder) = (Seen(), Holder())
    let system = Self.system(seen: seen, holder: holder)
    system.send(.item(2, .set(4)))
    system.send(.setEach(7))
    #expect(system.isStopped)
    let all = seen.all
    // The pass of `.setEach(7)` asked child 1, which stopped the system, and
    // no other: children 2 and 3 changed too, in the same reduction.
    #expect(all.last?.id == 1 && all.last?.value == 7, "\(all)")
    #expect(all.filter { $0.value == 7 }.count == 1, "children asked after stop(): \(all)")
    holder.system = nil
  }

  @Test("G9 a child's query by id that stops the system, among children read whole, is the last one asked")
  func stopAmongChildrenReadWhole() {
    let (seen, holder) = (Seen(), Holder())
    let system = Self.system(seen: seen, holder: holder)
    system.send(.replace(7))
    #expect(system.isStopped)
    let all = seen.all
    // Whichever of the two children came first stopped the system; the
    // other was not asked.
    #expect(all.filter { $0.value == 7 }.count == 1, "children asked after stop(): \(all)")
    holder.system = nil
  }
}
