import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

/// G4 for query feedbacks over the elements of a `TrackedArray`
/// (`Feedback.query(\.counters, at: i)`): the semantics of a closure
/// query, found from the array's log, so that only the feedbacks of the
/// elements that changed compare their element. The elements count their
/// comparisons, which is how the tests see which feedbacks were asked.
@Suite(.runsLeftoverJobs) struct ElementLensingGuaranteeTests {
  /// Counts the comparisons of the elements that share it.
  final class Comparisons: @unchecked Sendable {
    // Sendable: `count` is guarded by `lock`.
    private let lock = NSLock()
    private var stored = 0

    func increment() {
      lock.lock()
      stored += 1
      lock.unlock()
    }

    var count: Int {
      lock.lock()
      defer { lock.unlock() }
      return stored
    }
  }

  struct Counter: Sendable, Equatable, CustomStringConvertible {
    var value: Int
    let comparisons: Comparisons

    static func == (lhs: Counter, rhs: Counter) -> Bool {
      lhs.comparisons.increment()
      return lhs.value == rhs.value
    }

    var description: String { "\(value)" }
  }

  struct State: Sendable, Equatable {
    var counters: TrackedArray<Counter>
    var others: TrackedArray<Counter>
    var log: [String] = []
  }

  enum Event: Sendable, Equatable {
    case bump(Int)
    case bumpOther(Int)
    case append, removeLast
    case insertFirst
    case log(String)
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .bump(let index): state.counters[index].value += 1
    case .bumpOther(let index): state.others[index].value += 1
    case .append: state.counters.append(Counter(value: 100, comparisons: state.counters[0].comparisons))
    case .removeLast: state.counters.removeLast()
    case .insertFirst: state.counters.insert(Counter(value: 50, comparisons: state.counters[0].comparisons), at: 0)
    case .log(let line): state.log.append(line)
    }
  }

  struct Probe {
    let harness = Harness()
    let comparisons = Comparisons()
    let starts = Log<String>()
    let cancellations = Log<String>()
    let system: System<State, Event>

    /// `watched` feedbacks on `counters`, each starting an effect per value
    /// that never ends by itself, and one on `others[0]`.
    init(counters: Int, watched: Int, monitored: Bool = false) {
      let (starts, cancellations, comparisons) = (starts, cancellations, comparisons)
      let clock = harness.clock
      func watcher(_ name: String, _ path: KeyPath<State, TrackedArray<Counter>> & Sendable, _ index: Int)
        -> Feedback<State, Event>
      {
        Feedback.query(path, at: index) { counter in
          starts.append("\(name)\(index)=\(counter.value)")
          return .run { _ in
            await withTaskCancellationHandler {
              try? await clock.sleep(for: .seconds(3_600))
            } onCancel: {
              cancellations.append("\(name)\(index)=\(counter.value)")
            }
          }
        }
      }
      let initial = State(
        counters: TrackedArray((0..<counters).map { Counter(value: $0, comparisons: comparisons) }),
        others: [Counter(value: 0, comparisons: comparisons)])
      system = System(
        initial: initial, reduce: ElementLensingGuaranteeTests.reduce,
        feedbacks: (0..<watched).map { watcher("c", \.counters, $0) } + [watcher("o", \.others, 0)],
        environment: harness.environment,
        monitor: monitored ? SystemMonitor { _ in } : nil)
    }

    func settle() { harness.settle() }
  }

  @Test("G4 element lensing: each feedback starts with its element; a changed element restarts its feedback alone")
  func test_G4_elementLensingLifecycle() {
    let probe = Probe(counters: 3, watched: 3)
    #expect(probe.starts.entries == ["c0=0", "c1=1", "c2=2", "o0=0"])
    probe.system.send(.bump(1))
    probe.system.send(.bumpOther(0))
    probe.settle()
    #expect(probe.starts.entries == ["c0=0", "c1=1", "c2=2", "o0=0", "c1=2", "o0=1"])
    #expect(Set(probe.cancellations.entries) == ["c1=1", "o0=0"] && probe.cancellations.entries.count == 2)
    probe.system.stop()
  }

  @Test("G4 element lensing: past the end is a nil query, which cancels; an appended element starts its feedback")
  func test_G4_elementLensingPastTheEnd() {
    let probe = Probe(counters: 2, watched: 3)
    #expect(probe.starts.entries == ["c0=0", "c1=1", "o0=0"])
    probe.system.send(.append)
    probe.system.send(.removeLast)
    probe.system.send(.removeLast)
    probe.settle()
    #expect(probe.starts.entries == ["c0=0", "c1=1", "o0=0", "c2=100"])
    #expect(Set(probe.cancellations.entries) == ["c2=100", "c1=1"] && probe.cancellations.entries.count == 2)
    #expect(probe.system.runningTaskCount == 2)
    probe.system.stop()
  }

  @Test(
    "G4 element lensing: an event that changes one of 100 watched elements compares that element alone",
    arguments: [false, true])
  func test_G4_elementLensingAsksOnlyTheChangedElement(monitored: Bool) {
    let probe = Probe(counters: 100, watched: 100, monitored: monitored)
    let afterStart = probe.comparisons.count
    for step in 0..<50 { probe.system.send(.bump(step * 7 % 100)) }
    probe.settle()
    #expect(probe.starts.entries.count == 101 + 50)
    #expect(probe.cancellations.entries.count == 50)
    let perEvent = Double(probe.comparisons.count - afterStart) / 50
    if monitored {
      // The monitor keeps each state before its event: every change copies
      // the array, and every feedback compares its element, as closure
      // queries always do (100 counters and the other array's element).
      #expect(perEvent >= 100)
    } else {
      #expect(perEvent == 1)
    }
    probe.system.stop()
  }

  @Test("G4 element lensing: elements shifted by an insertion are all compared, and each changed one restarts")
  func test_G4_elementLensingAfterShift() {
    let probe = Probe(counters: 3, watched: 4)
    probe.system.send(.insertFirst)  // [50, 0, 1, 2]: every position changed
    probe.settle()
    #expect(probe.starts.entries == ["c0=0", "c1=1", "c2=2", "o0=0", "c0=50", "c1=0", "c2=1", "c3=2"])
    #expect(Set(probe.cancellations.entries) == ["c0=0", "c1=1", "c2=2"] && probe.cancellations.entries.count == 3)
    probe.system.stop()
  }

  @Test("G4 element lensing: two systems made from the same feedbacks each watch their own array")
  func test_G4_elementLensingPerSystem() {
    let comparisons = Comparisons()
    let starts = Log<String>()
    let feedbacks = (0..<2).map { index in
      Feedback<State, Event>.query(\.counters, at: index) { counter in
        starts.append("\(index)=\(counter.value)")
        return .none
      }
    }
    let initial = State(
      counters: [Counter(value: 0, comparisons: comparisons), Counter(value: 10, comparisons: comparisons)],
      others: [])
    let first = System(initial: initial, reduce: Self.reduce, feedbacks: feedbacks)
    let second = System(initial: initial, reduce: Self.reduce, feedbacks: feedbacks)
    first.send(.bump(0))
    second.send(.bump(1))
    #expect(starts.entries == ["0=0", "1=10", "0=0", "1=10", "0=1", "1=11"])
    first.stop()
    second.stop()
  }

  @Test("G3 element feedbacks are asked at the place of the first of them, in the order of the positions changed")
  func test_G3_elementFeedbacksOrder() {
    struct Pair: Sendable, Equatable {
      var counters = TrackedArray(repeating: 0, count: 2)
      var log: [String] = []
    }
    enum Step: Sendable, Equatable {
      case bumpBoth
      case log(String)
    }
    let system = System(
      initial: Pair(),
      reduce: { (state: inout Pair, step: Step) in
        switch step {
        case .bumpBoth:
          state.counters[0] += 1
          state.counters[1] += 1
        case .log(let line): state.log.append(line)
        }
      },
      feedbacks: [
        Feedback.query(\.counters, at: 1) { .send(.log("e1=\($0)")) },
        Feedback.query({ $0.counters[0] + $0.counters[1] }) { .send(.log("sum=\($0)")) },
        Feedback.query(\.counters, at: 0) { .send(.log("e0=\($0)")) },
      ])
    system.send(.bumpBoth)
    #expect(system.state.log == ["e0=0", "e1=0", "sum=0", "e0=1", "e1=1", "sum=2"])
    system.stop()
  }
}
