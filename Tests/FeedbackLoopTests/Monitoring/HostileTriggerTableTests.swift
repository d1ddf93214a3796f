import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoop

/// Effects' triggers live in the monitor's box (`SystemMonitorBox.triggers`),
/// by feedback and effect number, and an effectful runtime computes its
/// watermark slot from the core. These attack both: every strategy and
/// kind of effectful feedback, effects that wait, fail, are cancelled by a
/// new query, outlive a stop or a release, a stop or a release from inside
/// an effect's report, main-actor systems; and cancellations in systems of
/// 1 to 65 feedbacks, whose cancelled effects' late events must be dropped
/// (G4) and the others' reduced.
@Suite("Hostile trigger table", .runsLeftoverJobs, .timeLimit(.minutes(1)))
struct HostileTriggerTableTests {
  enum Event: Sendable, Equatable, CustomStringConvertible {
    case set(Int)
    case done(String)
    var description: String {
      switch self {
      case .set(let value): "set(\(value))"
      case .done(let text): "done(\(text))"
      }
    }
  }

  struct Boom: Error {}

  static func reduce(_ state: Int, _ event: Event) -> Int {
    if case .set(let value) = event { return value }
    return state
  }

  static func table<S: Sendable, E: Sendable>(_ system: System<S, E>) -> [EffectToken: String]? {
    system.core.monitorBox?._withUnsafeGuaranteedRef { $0.triggers }
  }

  /// What the monitor saw of each effect: its reports' triggers (which must
  /// agree), and whether it ended.
  struct Seen {
    var triggers: [String?] = []
    var kinds: [String] = []
    var ended = false
  }

  static func seen<S: Sendable, E: Sendable>(_ activity: ActivityLog<S, E>) -> [String: Seen] {
    var seen: [String: Seen] = [:]
    for entry in activity.log.entries {
      let (id, kind, ends): (EffectID, String, Bool)
      switch entry {
      case .effectQueued(let effect): (id, kind, ends) = (effect, "queued", false)
      case .effectStarted(let effect): (id, kind, ends) = (effect, "started", false)
      case .effectCancelled(let effect): (id, kind, ends) = (effect, "cancelled", true)
      case .effectFinished(let effect): (id, kind, ends) = (effect, "finished", true)
      case .effectFailed(let effect, _): (id, kind, ends) = (effect, "failed", true)
      default: continue
      }
      let key = "#\(id.feedback.index) \(id.number)"
      seen[key, default: Seen()].triggers.append(id.trigger)
      seen[key, default: Seen()].kinds.append(kind)
      if ends { seen[key, default: Seen()].ended = true }
    }
    return seen
  }

  /// Every report of an effect carries one and the same non-nil trigger;
  /// the table holds exactly the effects of the unkeyed feedbacks that have
  /// not ended, with those triggers. Returns "#feedback trigger kind,kind" per effect.
  @discardableResult
  static func check<S: Sendable, E: Sendable>(
    _ system: System<S, E>, _ activity: ActivityLog<S, E>, keyed: Set<Int> = [],
    sourceLocation: SourceLocation = #_sourceLocation
  ) -> [String] {
    let seen = Self.seen(activity)
    for (key, effect) in seen {
      #expect(
        effect.triggers.allSatisfy { $0 != nil }, "\(key) reported without a trigger: \(effect.kinds)",
        sourceLocation: sourceLocation)
      #expect(
        Set(effect.triggers.map { $0 ?? "nil" }).count == 1,
        "\(key) reported with different triggers: \(effect.triggers)", sourceLocation: sourceLocation)
    }
    let live = seen.filter { key, effect in
      !effect.ended && !keyed.contains(Int(key.dropFirst().prefix { $0 != " " })!)
    }.map { "\($0.key) \($0.value.triggers.first! ?? "nil")" }.sorted()
    let table = (Self.table(system) ?? [:]).map { "#\($0.key.feedback) \($0.key.number) \($0.value)" }.sorted()
    #expect(
      table == live, "the trigger table is not the effects still running or waiting", sourceLocation: sourceLocation)
    return seen.map {
      "\($0.key.prefix { $0 != " " }) \($0.value.triggers.first! ?? "nil") \($0.value.kinds.joined(separator: ","))"
    }.sorted()
  }

  @Test(
    "a .queue feedback's waiting effects are reported with their triggers when queued, started and ended; the table follows"
  )
  func queueStrategy() {
    let harness = Harness()
    let activity = ActivityLog<Int, Event>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce,
      feedbacks: [
        Feedback.query({ $0 > 0 ? "q\($0)" : nil }, strategy: .queue) { query in
          query.hasSuffix("2") || query.hasSuffix("4") || query.hasSuffix("8")
            ? .send(.done(query)) : .after(.seconds(1), send: .done(query))
        }
      ],
      environment: harness.environment, monitor: activity.monitor)
    for value in 1...5 { system.send(.set(value)) }
    harness.settle()
    #expect(
      Self.check(system, activity) == [
        "#0 q1 started", "#0 q2 queued", "#0 q3 queued", "#0 q4 queued", "#0 q5 queued",
      ])
    harness.clock.advance(by: .seconds(1))
    #expect(
      Self.check(system, activity) == [
        "#0 q1 started,finished", "#0 q2 queued,started,finished", "#0 q3 queued,started", "#0 q4 queued",
        "#0 q5 queued",
      ])
    harness.clock.advance(by: .seconds(2))
    Self.check(system, activity)
    #expect(Self.table(system)?.isEmpty == true)
    // Waiting effects cancelled by a stop: reported with their triggers.
    for value in 7...9 { system.send(.set(value)) }
    harness.settle()
    system.stop()
    #expect(
      Self.check(system, activity).filter { $0.contains("q7") || $0.contains("q8") || $0.contains("q9") } == [
        "#0 q7 started,cancelled", "#0 q8 queued,cancelled", "#0 q9 queued,cancelled",
      ])
    #expect(Self.table(system)?.isEmpty == true)
    harness.clock.advance(by: .seconds(5))
    #expect(Self.table(system)?.isEmpty == true)
  }

  @Test(
    "a .merge feedback's concurrent effects keep their triggers; a nil query cancels them all, reported with theirs")
  func mergeStrategy() {
    let harness = Harness()
    let activity = ActivityLog<Int, Event>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce,
      feedbacks: [
        Feedback.query({ $0 > 0 ? "m\($0)" : nil }, strategy: .merge) { query in
          .after(.seconds(1), send: .done(query))
        },
        Feedback.query({ $0 > 0 ? "c\($0)" : nil }) { query in .after(.seconds(1), send: .done(query)) },
      ],
      environment: harness.environment, monitor: activity.monitor)
    for value in 1...3 { system.send(.set(value)) }
    harness.settle()
    #expect(
      Self.check(system, activity) == [
        "#0 m1 started", "#0 m2 started", "#0 m3 started",
        "#1 c1 started,cancelled", "#1 c2 started,cancelled", "#1 c3 started",
      ])
    system.send(.set(0))
    harness.settle()
    #expect(
      Self.check(system, activity) == [
        "#0 m1 started,cancelled", "#0 m2 started,cancelled", "#0 m3 started,cancelled",
        "#1 c1 started,cancelled", "#1 c2 started,cancelled", "#1 c3 started,cancelled",
      ])
    system.send(.set(4))
    harness.clock.advance(by: .seconds(1))
    Self.check(system, activity)
    #expect(Self.table(system)?.isEmpty == true)
    #expect(activity.finished.map { $0.trigger ?? "nil" }.sorted() == ["c4", "m4"])
    system.stop()
  }

  @Test("predicate, onEvent, keyed requests and a failing effect side by side: each report carries its own trigger")
  func everyKindSideBySide() {
    let harness = Harness()
    let activity = ActivityLog<Int, Event>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce,
      feedbacks: [
        Feedback.predicate({ $0 % 2 == 1 }, whenFalse: .cancelRunning) { state in
          .after(.seconds(1), send: .done("p\(state)"))
        },
        Feedback.onEvent { event, _ in
          if case .set = event { return .after(.seconds(2), send: .done("e")) }
          return .none
        },
        Feedback.requests({ $0 > 0 ? Set([$0]) : [] }) { request in
          .after(.seconds(3), send: .done("r\(request)"))
        },
        Feedback.query({ $0 > 0 ? "f\($0)" : nil }, strategy: .merge) { _ in
          .run { _ in throw Boom() }
        },
      ],
      environment: harness.environment, monitor: activity.monitor)
    system.send(.set(1))
    harness.settle()
    Self.check(system, activity, keyed: [2])
    system.send(.set(2))
    harness.settle()
    let seen = Self.check(system, activity, keyed: [2])
    #expect(seen.contains("#0 1 started,cancelled"))
    #expect(seen.contains("#1 set(1) started,cancelled"))
    #expect(seen.contains("#1 set(2) started"))
    #expect(seen.contains("#2 1 started,cancelled"))
    #expect(seen.contains("#2 2 started"))
    #expect(seen.contains("#3 f1 started,failed"))
    #expect(seen.contains("#3 f2 started,failed"))
    harness.clock.advance(by: .seconds(3))
    Self.check(system, activity, keyed: [2])
    #expect(Self.table(system)?.isEmpty == true)
    system.stop()
    harness.clock.advance(by: .seconds(3))
    #expect(Self.table(system)?.isEmpty == true)
  }

  @Test("effects that end after their system stopped report no end, and leave the table empty")
  func effectsEndingAfterStop() {
    let harness = Harness()
    let activity = ActivityLog<Int, Event>()
    let gate = Gate()
    let system = System(
      initial: 0, reduceReturning: Self.reduce,
      feedbacks: [
        Feedback.query({ $0 > 0 ? "t\($0)" : nil }) { query in .after(.seconds(1), send: .done(query)) },
        Feedback.query({ $0 > 0 ? "g\($0)" : nil }, strategy: .queue) { query in
          .run { send in
            await gate.wait()  // deaf to its cancellation: sends after the stop
            send(.done(query))
          }
        },
      ],
      environment: harness.environment, monitor: activity.monitor)
    system.send(.set(1))
    system.send(.set(2))
    harness.settle()
    #expect(
      Self.check(system, activity) == ["#0 t1 started,cancelled", "#0 t2 started", "#1 g1 started", "#1 g2 queued"])
    system.stop()
    gate.open()
    harness.settle()
    harness.clock.advance(by: .seconds(2))
    #expect(
      Self.check(system, activity) == [
        "#0 t1 started,cancelled", "#0 t2 started,cancelled", "#1 g1 started,cancelled", "#1 g2 queued,cancelled",
      ])
    #expect(Self.table(system)?.isEmpty == true)
    #expect(activity.reducedEvents == [.set(1), .set(2)])
  }

  @Test(
    "a system stopped from inside an effect's report (started, queued, finished of an immediate effect): every report keeps its trigger, the table empties",
    arguments: ["started", "queued", "finished"])
  func stopFromInsideAReport(at kind: String) {
    let harness = Harness()
    let activity = ActivityLog<Int, Event>()
    let system = Ref<System<Int, Event>>()
    let monitor = SystemMonitor<Int, Event>.combining([
      activity.monitor,
      SystemMonitor { entry in
        switch entry {
        case .effectStarted(let id) where kind == "started" && id.trigger == "a2": system.value?.stop()
        case .effectQueued(let id) where kind == "queued" && id.trigger == "b2": system.value?.stop()
        case .effectFinished(let id) where kind == "finished" && id.trigger == "i2": system.value?.stop()
        default: break
        }
      },
    ])
    system.value = System(
      initial: 0, reduceReturning: Self.reduce,
      feedbacks: [
        Feedback.query({ $0 > 0 ? "a\($0)" : nil }) { query in .after(.seconds(1), send: .done(query)) },
        Feedback.query({ $0 > 0 ? "b\($0)" : nil }, strategy: .queue) { query in
          .after(.seconds(1), send: .done(query))
        },
        Feedback.query({ $0 > 0 ? "i\($0)" : nil }) { query in .send(.done(query)) },
      ],
      environment: harness.environment, monitor: monitor)
    guard let held = system.value else { return }
    held.send(.set(1))
    held.send(.set(2))
    held.send(.set(3))
    harness.settle()
    harness.clock.advance(by: .seconds(3))
    Self.check(held, activity)
    #expect(Self.table(held)?.isEmpty == true)
    #expect(!activity.reducedEvents.contains(.set(3)), "stopped before the third")
    // The monitor holds `system`, which holds the system and so the
    // monitor: let go of it, or the test leaks both (LeakSanitizer).
    system.value = nil
  }

  @Test(
    "a system released from inside an effect's report (its last reference): no report after, nothing crashes when its timers come due",
    arguments: ["started", "queued", "finished"])
  func releaseFromInsideAReport(at kind: String) {
    let harness = Harness()
    let activity = ActivityLog<Int, Event>()
    let system = Ref<System<Int, Event>>()
    weak var weakCore: SystemCore<Int, Event>?
    let released = Log<String>()
    let monitor = SystemMonitor<Int, Event>.combining([
      activity.monitor,
      SystemMonitor { entry in
        let release: Bool
        switch entry {
        case .effectStarted(let id): release = kind == "started" && id.trigger == "a2"
        case .effectQueued(let id): release = kind == "queued" && id.trigger == "b2"
        case .effectFinished(let id): release = kind == "finished" && id.trigger == "i2"
        default: release = false
        }
        guard release else { return }
        let taken = system.value
        system.value = nil
        released.append(kind)
        _ = consume taken  // the last reference: released here, inside the report
      },
    ])
    var input: Input<Event>? = Input<Event>()
    system.value = System(
      initial: 0, reduceReturning: Self.reduce,
      feedbacks: [
        .input(input!),
        Feedback.query({ $0 > 0 ? "a\($0)" : nil }) { query in .after(.seconds(1), send: .done(query)) },
        Feedback.query({ $0 > 0 ? "b\($0)" : nil }, strategy: .queue) { query in
          .after(.seconds(1), send: .done(query))
        },
        Feedback.query({ $0 > 0 ? "i\($0)" : nil }) { query in .send(.done(query)) },
      ],
      environment: harness.environment, monitor: monitor)
    weakCore = system.value?.core
    // Sent through the input, which holds the core, not the system: the
    // release in the report is the last one.
    input?.send(.set(1))
    input?.send(.set(2))
    #expect(released.entries == [kind])
    #expect(system.value == nil, "released from inside the report")
    let countAtRelease = activity.log.entries.count
    input?.send(.set(3))  // dropped: no monitor left to report it to
    harness.settle()
    harness.clock.advance(by: .seconds(3))
    #expect(activity.log.entries.count == countAtRelease, "a report after the release")
    for effect in Self.seen(activity).values {
      #expect(effect.triggers.allSatisfy { $0 != nil })
      #expect(Set(effect.triggers.map { $0 ?? "nil" }).count == 1)
    }
    #expect(weakCore != nil, "the input keeps the core")
    #expect(weakCore.map { $0.monitorBox == nil } == true, "the released system's monitor box is gone")
    input = nil
    #expect(weakCore == nil, "the input's release frees the core")
  }

  @Test(
    "a main-actor system's effects, ended on the executor and reduced through the hop, keep and forget their triggers")
  @MainActor
  func mainActorSystem() {
    let harness = Harness()
    let activity = ActivityLog<Int, Event>()
    let system = System(
      initial: 0, reduceReturning: Self.reduce,
      feedbacks: [
        Feedback.query({ $0 > 0 ? "q\($0)" : nil }, strategy: .queue) { query in
          .after(.seconds(1), send: .done(query))
        },
        Feedback.query({ $0 > 0 ? "c\($0)" : nil }) { query in
          .run { send in send(.done(query)) }
        },
      ],
      isolation: .mainActor, environment: harness.environment, monitor: activity.monitor)
    for value in 1...3 { system.send(.set(value)) }
    Self.check(system, activity)
    harness.clock.advance(by: .seconds(1))
    system.processQueuedEvents()
    harness.clock.advance(by: .seconds(1))
    system.processQueuedEvents()
    harness.clock.advance(by: .seconds(1))
    system.processQueuedEvents()
    harness.settle()
    system.processQueuedEvents()
    #expect(
      Self.check(system, activity) == [
        "#0 q1 started,finished", "#0 q2 queued,started,finished", "#0 q3 queued,started,finished",
        "#1 c1 started,cancelled", "#1 c2 started,cancelled", "#1 c3 started,finished",
      ])
    #expect(Self.table(system)?.isEmpty == true)
    system.stop()
  }

  @Test(
    "the loop changes hands between threads (senders, and one running the effects): the table is only touched by the owner, and empties"
  )
  func ownersOnManyThreads() async {
    for _ in 0..<HostileInputInlineTests.pick(20, sanitized: 4) {
      let harness = Harness()
      let activity = ActivityLog<Int, Event>()
      let system = System(
        initial: 0, reduceReturning: Self.reduce,
        feedbacks: [
          Feedback.query({ $0 > 0 ? "c\($0)" : nil }) { query in .run { send in send(.done(query)) } },
          Feedback.query({ $0 > 0 ? "q\($0)" : nil }, strategy: .queue) { query in
            .run { send in send(.done(query)) }
          },
          Feedback.query({ $0 > 0 ? "m\($0)" : nil }, strategy: .merge) { query in
            query.hasSuffix("0") || query.hasSuffix("2") || query.hasSuffix("4")
              ? .send(.done(query)) : .run { send in send(.done(query)) }
          },
          Feedback.onEvent { event, _ in
            if case .set(let value) = event { return .run { send in send(.done("e\(value)")) } }
            return .none
          },
          Feedback.requests({ $0 > 0 ? Set([$0 % 3]) : [] }) { request in
            .run { send in send(.done("r\(request)")) }
          },
        ],
        environment: harness.environment, monitor: activity.monitor)
      let stop = Ref<Bool>()
      let sendersDone = Log<Int>()
      let perSender = HostileInputInlineTests.pick(150, sanitized: 40)
      await HostileInputInlineTests.onThreads(4) { index in
        if index == 3 {
          // Runs the effects here, whose events and ends make this thread
          // the loop's owner in turn.
          while stop.value != true { harness.settle() }
          harness.settle()
        } else {
          for value in 0..<perSender { system.send(.set(1 + index * 1_000 + value)) }
          // The last sender to finish stops the runner.
          sendersDone.append(index)
          if sendersDone.entries.count == 3 { stop.value = true }
        }
      }
      harness.settle()
      Self.check(system, activity, keyed: [4])
      #expect(Self.table(system)?.isEmpty == true, "every effect ended: the table must be empty")
      system.stop()
    }
  }

  // MARK: - Watermarks

  protocol WatermarkState: Sendable {
    init()
    var generation: Int { get set }
    var results: [String] { get set }
  }

  struct SmallState: WatermarkState {
    var generation = 0
    var results: [String] = []
  }

  /// Big enough that the state is not kept in the guard's cache line, and
  /// the watermarks move with it.
  struct LargeState: WatermarkState {
    var generation = 0
    var results: [String] = []
    var padding: (Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int, Int) = (
      0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0
    )
  }

  enum WEvent: Sendable, Equatable {
    case bump
    case result(String)
  }

  /// `count` query feedbacks whose effects wait on a gate deaf to their
  /// cancellation; those in `cancelling` (all if nil) query the generation,
  /// so that each bump cancels and restarts them; the others keep theirs.
  /// After two bumps the gate opens: every effect sends. Only the current
  /// effects' results may be reduced.
  static func runWatermarks<S: WatermarkState>(
    _: S.Type, feedbacks count: Int, cancelling: Set<Int>?, monitored: Bool,
    sourceLocation: SourceLocation = #_sourceLocation
  ) {
    let harness = Harness()
    let gate = Gate()
    let activity = ActivityLog<S, WEvent>()
    let cancels: @Sendable (Int) -> Bool = { cancelling?.contains($0) ?? true }
    let feedbacks = (0..<count).map { index in
      Feedback<S, WEvent>.query({ state in cancels(index) ? "\(index)@\(state.generation)" : "\(index)" }) { query in
        .run { send in
          await gate.wait()
          send(.result(query))
        }
      }
    }
    let system = System(
      initial: S(),
      reduceReturning: { (state: S, event: WEvent) -> S in
        var state = state
        switch event {
        case .bump: state.generation += 1
        case .result(let result): state.results.append(result)
        }
        return state
      },
      feedbacks: feedbacks, environment: harness.environment, monitor: monitored ? activity.monitor : nil)
    harness.settle()
    system.send(.bump)
    harness.settle()
    system.send(.bump)
    harness.settle()
    gate.open()
    harness.settle()
    let expected = (0..<count).map { cancels($0) ? "\($0)@2" : "\($0)" }.sorted()
    #expect(
      system.state.results.sorted() == expected,
      "\(count) feedbacks, cancelling \(cancelling.map { "\($0.sorted())" } ?? "all"): a late event of a cancelled effect was reduced, or a live one dropped",
      sourceLocation: sourceLocation)
    if monitored {
      let dropped = activity.discarded.compactMap { event, _ -> String? in
        guard case .result(let result) = event else { return nil }
        return result
      }
      #expect(
        dropped.allSatisfy { !expected.contains($0) }, "a live effect's event was dropped",
        sourceLocation: sourceLocation)
      #expect(Self.table(system)?.isEmpty == true, sourceLocation: sourceLocation)
      #expect(activity.cancelled.count == 2 * (0..<count).filter(cancels).count, sourceLocation: sourceLocation)
      #expect(
        activity.cancelled.allSatisfy { $0.trigger?.hasSuffix("@0") == true || $0.trigger?.hasSuffix("@1") == true })
    }
    system.stop()
  }

  @Test(
    "G4 cancellations in systems of 1 to 65 feedbacks: the cancelled effects' late events are dropped, the others' reduced",
    arguments: [1, 2, 3, 4, 5, 9, 17, 65])
  func watermarksAcrossFeedbackCounts(count: Int) {
    let subsets: [Set<Int>?] = [nil, [0], [count - 1], [count / 2], Set(stride(from: 0, to: count, by: 2))]
    for cancelling in subsets {
      for monitored in [true, false] {
        Self.runWatermarks(SmallState.self, feedbacks: count, cancelling: cancelling, monitored: monitored)
        Self.runWatermarks(LargeState.self, feedbacks: count, cancelling: cancelling, monitored: monitored)
        Self.runWatermarks(Int8Box.self, feedbacks: count, cancelling: cancelling, monitored: monitored)
      }
    }
  }

  /// A state whose stored part is small, to keep it in the guard's line.
  struct Int8Box: WatermarkState {
    final class Results: @unchecked Sendable {
      var results: [String]
      init(_ results: [String]) { self.results = results }
    }
    var small: Int8 = 0
    var storage = Results([])
    var generation: Int {
      get { Int(small) }
      set { small = Int8(newValue) }
    }
    var results: [String] {
      get { storage.results }
      set { storage = Results(newValue) }
    }
  }
}
