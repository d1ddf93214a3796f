import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoopDebugging

/// Child systems recorded with their parent's id in every message.
@Suite(.runsLeftoverJobs) struct ChildRecordingTests {
  enum Counter {
    enum Event: Sendable, Equatable { case tick }
    static func reduce(_ state: inout Int, _ event: Event) { state += 1 }
  }

  enum Parent {
    struct State: Sendable, Equatable {
      var children: TrackedDictionary<Int, String> = [:]
      var finished: [Int] = []
    }

    enum Event: Sendable, Equatable {
      case add(Int)
      case tick(Int)
      case finished(Int)
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .add(let id): state.children[id] = "child \(id)"
      case .tick: break
      case .finished(let id): state.finished.append(id)
      }
    }
  }

  @Test("a child system's recorder names the parent in every message; the parent's names none")
  func parentIDInMessages() throws {
    let harness = Harness()
    let parentRecorder = Recorder<Parent.State, Parent.Event>(system: "app")
    let childRecorders = Recorders()
    let parentMessages = InspectionTests.Lines()
    let childMessages = InspectionTests.Lines()
    parentRecorder.stream.add { inspection in
      let message = try? InspectionMessage(inspection, serializer: .described)
      parentMessages.append("\(message?.system ?? "?") \(message?.parent ?? "none")")
    }
    let children = ChildSystems<Int, Int, Counter.Event>()
    let feedback = Feedback<Parent.State, Parent.Event>.childSystems(
      children, for: \.children,
      make: { id, _ in
        let recorder: Recorder<Int, Counter.Event> = parentRecorder.childRecorder(id: "\(id)")
        childRecorders.add(recorder)
        recorder.stream.add { inspection in
          let message = try? InspectionMessage(inspection, serializer: .described)
          childMessages.append("\(message?.system ?? "?") \(message?.parent ?? "none")")
        }
        return System(
          initial: 0, reduce: Counter.reduce, environment: harness.environment, monitor: recorder.monitor)
      },
      route: { if case .tick(let id) = $0 { (id, .tick) } else { nil } },
      outcome: { id, state in state == 2 ? .finished(id) : nil })
    let system = System(
      initial: Parent.State(), reduce: Parent.reduce, feedbacks: [feedback], environment: harness.environment,
      monitor: parentRecorder.monitor)
    system.send(.add(1))
    system.send(.add(2))
    system.send(.tick(1))
    system.send(.tick(1))
    harness.settle()
    #expect(system.state.finished == [1])

    let recorders = childRecorders.all
    #expect(recorders.map(\.stream.system) == ["app/1", "app/2"])
    #expect(recorders.map(\.stream.parent) == ["app", "app"])
    let first = try #require(recorders.first)
    #expect(first.moments.map(\.state) == [0, 1, 2])
    // Started, two reductions of the first child, the start of the second.
    #expect(childMessages.all.filter { $0 == "app/1 app" }.count >= 3)
    #expect(childMessages.all.allSatisfy { $0 == "app/1 app" || $0 == "app/2 app" })
    #expect(!parentMessages.all.isEmpty)
    #expect(parentMessages.all.allSatisfy { $0 == "app none" })

    // A grandchild names its own parent, the child.
    let grandchild: Recorder<Int, Int> = first.childRecorder(id: "x")
    #expect(grandchild.stream.system == "app/1/x" && grandchild.stream.parent == "app/1")
    system.stop()
  }

  @Test("the parent id reaches a consumer added to a running child's stream")
  func lateConsumerOfAChild() throws {
    let parent = Recorder<Int, Int>(system: "app")
    let child: Recorder<Int, Int> = parent.childRecorder(id: "7", capacity: 10)
    let system = System(initial: 0, reduceReturning: { $0 + $1 }, monitor: child.monitor)
    system.send(1)
    let lines = InspectionTests.Lines()
    child.stream.add { inspection in
      if let line = try? InspectionMessage(inspection, serializer: .described).jsonLine() { lines.append(line) }
    }
    system.send(2)
    let line = try #require(lines.all.first)
    #expect(line.contains(#""parent":"app""#))
    #expect(line.contains(#""system":"app/7""#))
    system.stop()
  }

  final class Recorders: @unchecked Sendable {
    // Sendable: `recorders` is only touched under `lock`.
    private let lock = NSLock()
    private var recorders: [Recorder<Int, Counter.Event>] = []
    func add(_ recorder: Recorder<Int, Counter.Event>) { lock.withLock { recorders.append(recorder) } }
    var all: [Recorder<Int, Counter.Event>] { lock.withLock { recorders } }
  }
}
