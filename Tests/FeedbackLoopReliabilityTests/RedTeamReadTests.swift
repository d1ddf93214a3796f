import FeedbackLoop
import Foundation
import Testing

/// A state whose reducer writes its parts one at a time, so that a read in
/// the middle of a reduction shows up as a state that is not whole.
protocol TearProbe: Sendable {
  init()
  mutating func step()
  /// Whether every part agrees with every other: false only for a copy
  /// taken in the middle of a reduction.
  var isWhole: Bool { get }
  /// How many reductions the state has seen (never goes down).
  var count: Int { get }
}

/// Burns a little time between two writes of a reducer, so that a reader
/// racing it has a window to land in.
@inline(never) func lingerBetweenWrites() {
  var sum = 0
  for number in 0..<48 { sum &+= number }
  precondition(sum > 0)
}

extension Reliability {
  /// Red team for the optimistic reads (G15): states of odd
  /// sizes, alignments and shapes, in the guard's line and out of it;
  /// reads during stop(), from other systems' callbacks, from the main
  /// actor, of monitored systems, and a thread's own send then read.
  /// Outcomes are counts; nothing waits on time.
  @Suite("Red team: reads from other threads")
  struct RedTeamReadTests {
    // MARK: - States of every shape

    /// One byte: the smallest state, in the guard's line.
    struct OneByte: TearProbe {
      var value: UInt8 = 0
      mutating func step() { value &+= 1 }
      var isWhole: Bool { true }
      var count: Int { Int(value) }
    }

    /// A `Double` and a `Bool`: 9 bytes, padded, in the guard's line.
    struct DoubleAndBool: TearProbe {
      var number = 0.0
      var isOdd = false
      mutating func step() {
        number += 1
        lingerBetweenWrites()
        isOdd.toggle()
      }
      var isWhole: Bool { isOdd == (Int(number) % 2 == 1) }
      var count: Int { Int(number) }
    }

    /// 31 bytes: the last byte of the guard's line.
    struct ThirtyOne: TearProbe {
      var a = 0, b = 0, c = 0
      var d: UInt32 = 0
      var e: UInt16 = 0
      var f: UInt8 = 0
      mutating func step() {
        a += 1
        lingerBetweenWrites()
        b += 1
        c += 1
        lingerBetweenWrites()
        d &+= 1
        e &+= 1
        lingerBetweenWrites()
        f &+= 1
      }
      var isWhole: Bool {
        a == b && b == c && UInt32(truncatingIfNeeded: a) == d && UInt16(truncatingIfNeeded: a) == e
          && UInt8(truncatingIfNeeded: a) == f
      }
      var count: Int { a }
    }

    /// 33 bytes: one byte too many for the guard's line.
    struct ThirtyThree: TearProbe {
      var a = 0, b = 0, c = 0, d = 0
      var isOdd = false
      mutating func step() {
        a += 1
        lingerBetweenWrites()
        b += 1
        c += 1
        lingerBetweenWrites()
        d += 1
        isOdd.toggle()
      }
      var isWhole: Bool { a == b && b == c && c == d && isOdd == (a % 2 == 1) }
      var count: Int { a }
    }

    /// An enum whose cases carry payloads of different sizes: a torn copy
    /// would pair one case's tag with another's payload (13 bytes, in the
    /// guard's line).
    struct SmallPayload: TearProbe {
      enum Phase: Sendable {
        case even(Int32, Int32)
        case odd(Int32, Int32, Int32)
      }
      var phase = Phase.even(0, 0)
      mutating func step() {
        let next = Int32(count + 1)
        phase = next % 2 == 0 ? .even(next, next) : .odd(next, next, next)
      }
      var isWhole: Bool {
        switch phase {
        case .even(let a, let b): a == b && a % 2 == 0
        case .odd(let a, let b, let c): a == b && b == c && a % 2 == 1
        }
      }
      var count: Int {
        switch phase {
        case .even(let a, _), .odd(let a, _, _): Int(a)
        }
      }
    }

    /// The same with payloads out of the guard's line (41 bytes).
    struct LargePayload: TearProbe {
      enum Phase: Sendable {
        case even(Int, Int, Int, Int)
        case odd(Int, Int, Int, Int, Int)
      }
      var phase = Phase.even(0, 0, 0, 0)
      mutating func step() {
        let next = count + 1
        phase = next % 2 == 0 ? .even(next, next, next, next) : .odd(next, next, next, next, next)
      }
      var isWhole: Bool {
        switch phase {
        case .even(let a, let b, let c, let d): a == b && b == c && c == d && a % 2 == 0
        case .odd(let a, let b, let c, let d, let e): a == b && b == c && c == d && d == e && a % 2 == 1
        }
      }
      var count: Int {
        switch phase {
        case .even(let a, _, _, _), .odd(let a, _, _, _, _): a
        }
      }
    }

    /// An optional state mutated through the optional (33 bytes), which
    /// the reducer sets to nil and back every third event: a read sees
    /// either nil or a whole value.
    struct OptionalQuad: TearProbe {
      struct Quad: Sendable { var a = 0, b = 0, c = 0, d = 0 }
      var quad: Quad? = Quad()
      var last = 0
      mutating func step() {
        if quad == nil {
          last += 1
          quad = Quad(a: last, b: last, c: last, d: last)
          return
        }
        if last % 3 == 2 {
          last += 1
          quad = nil
          return
        }
        last += 1
        quad!.a += 1
        lingerBetweenWrites()
        quad!.b += 1
        quad!.c += 1
        lingerBetweenWrites()
        quad!.d += 1
      }
      var isWhole: Bool {
        guard let quad else { return last % 3 == 0 }
        return quad.a == last && quad.b == last && quad.c == last && quad.d == last
      }
      var count: Int { last }
    }

    /// Four 64-bit lanes, 16-byte aligned, 32 bytes: in the guard's line,
    /// written lane by lane.
    struct Lanes: TearProbe {
      var lanes = SIMD4<Int64>(repeating: 0)
      mutating func step() {
        for lane in 0..<4 {
          lanes[lane] += 1
          lingerBetweenWrites()
        }
      }
      var isWhole: Bool { lanes == SIMD4(repeating: lanes[0]) }
      var count: Int { Int(lanes[0]) }
    }

    /// Sixteen 32-bit lanes: 64 bytes, 16-byte aligned, out of line.
    struct WideLanes: TearProbe {
      var lanes = SIMD16<Int32>(repeating: 0)
      mutating func step() {
        for lane in 0..<16 {
          lanes[lane] += 1
          if lane % 4 == 3 { lingerBetweenWrites() }
        }
      }
      var isWhole: Bool { lanes == SIMD16(repeating: lanes[0]) }
      var count: Int { Int(lanes[0]) }
    }

    /// 4 KiB of numbers, all equal between reductions.
    struct Page: TearProbe {
      typealias Eight = (Int, Int, Int, Int, Int, Int, Int, Int)
      typealias SixtyFour = (Eight, Eight, Eight, Eight, Eight, Eight, Eight, Eight)
      static let zeroEight: Eight = (0, 0, 0, 0, 0, 0, 0, 0)
      static let zeroSixtyFour: SixtyFour = (
        zeroEight, zeroEight, zeroEight, zeroEight, zeroEight, zeroEight, zeroEight, zeroEight
      )
      var numbers: (SixtyFour, SixtyFour, SixtyFour, SixtyFour, SixtyFour, SixtyFour, SixtyFour, SixtyFour) = (
        zeroSixtyFour, zeroSixtyFour, zeroSixtyFour, zeroSixtyFour, zeroSixtyFour, zeroSixtyFour, zeroSixtyFour,
        zeroSixtyFour
      )
      mutating func step() {
        withUnsafeMutableBytes(of: &numbers) { bytes in
          let all = bytes.bindMemory(to: Int.self)
          for index in all.indices { all[index] += 1 }
        }
      }
      var isWhole: Bool {
        withUnsafeBytes(of: numbers) { bytes in
          let all = bytes.bindMemory(to: Int.self)
          return all.count == 512 && all.allSatisfy { $0 == all[0] }
        }
      }
      var count: Int { numbers.0.0.0 }
    }

    /// A state the reducer never writes: every read sees the initial one.
    struct Untouched: TearProbe {
      var a = 7, b = 7, c = 7
      mutating func step() {}
      var isWhole: Bool { a == 7 && b == 7 && c == 7 }
      var count: Int { 0 }
    }

    /// A state that holds a reference: read through the owner, never
    /// optimistically, beside the others for comparison.
    struct Named: TearProbe {
      var a = 0, b = 0
      var name = "a name longer than fifteen bytes, on the heap"
      mutating func step() {
        a += 1
        lingerBetweenWrites()
        b += 1
        name = a % 2 == 0 ? "an even name longer than fifteen bytes" : "an odd name longer than fifteen bytes"
      }
      var isWhole: Bool { a == b && name.hasPrefix(a == 0 ? "a name" : a % 2 == 0 ? "an even" : "an odd") }
      var count: Int { a }
    }

    static let kinds = [
      "one byte", "double and bool", "31 bytes", "33 bytes", "small payload", "large payload", "optional",
      "SIMD4<Int64>", "SIMD16<Int32>", "4 KiB", "untouched", "named",
    ]

    static func probe(_ kind: String) -> any TearProbe.Type {
      switch kind {
      case "one byte": OneByte.self
      case "double and bool": DoubleAndBool.self
      case "31 bytes": ThirtyOne.self
      case "33 bytes": ThirtyThree.self
      case "small payload": SmallPayload.self
      case "large payload": LargePayload.self
      case "optional": OptionalQuad.self
      case "SIMD4<Int64>": Lanes.self
      case "SIMD16<Int32>": WideLanes.self
      case "4 KiB": Page.self
      case "untouched": Untouched.self
      default: Named.self
      }
    }

    struct Outcome: Sendable {
      var torn = 0
      var backwards = 0
      var reads = 0
    }

    /// One thread sends `sends` events, as many readers as there are
    /// processors read until it is done (at least `minimumReads` each),
    /// counting torn reads and reads older than the same thread's read
    /// before.
    static func readWhileSending<State: TearProbe>(
      _ system: System<State, Int>, sends: Int, minimumReads: Int
    ) async -> Outcome {
      let outcome = Locked(Outcome())
      let start = Gate()
      let done = Locked(false)
      async let sender: Void = onThreads(1, startingAt: start) { _ in
        for number in 1...sends { system.send(number) }
        done.withLock { $0 = true }
      }
      async let reading: Void = onThreads(ProcessInfo.processInfo.activeProcessorCount, startingAt: start) { _ in
        var mine = Outcome()
        var last = 0
        while mine.reads < minimumReads || !done.current {
          for _ in 0..<64 {
            let state = system.state
            if !state.isWhole { mine.torn += 1 }
            if state.count < last { mine.backwards += 1 }
            last = state.count
          }
          mine.reads += 64
        }
        outcome.withLock {
          $0.torn += mine.torn
          $0.backwards += mine.backwards
          $0.reads += mine.reads
        }
      }
      start.open()
      await sender
      await reading
      return outcome.current
    }

    func check<State: TearProbe>(_: State.Type, kind: String, monitored: Bool) async {
      let sends = kind == "one byte" ? 255 : Scale.pick(kind == "4 KiB" ? 20_000 : 100_000, sanitized: 5_000)
      let reductions = Locked(0)
      let monitor = SystemMonitor<State, Int> { activity in
        if case .reduced = activity { reductions.withLock { $0 += 1 } }
      }
      let system = System<State, Int>(
        initial: State(), reduce: { state, _ in state.step() }, monitor: monitored ? monitor : nil)
      let outcome = await Self.readWhileSending(system, sends: sends, minimumReads: Scale.pick(5_000, sanitized: 500))
      #expect(outcome.torn == 0, "\(kind): \(outcome.torn) of \(outcome.reads) reads saw a reduction halfway")
      #expect(outcome.backwards == 0, "\(kind): \(outcome.backwards) of \(outcome.reads) reads went back in time")
      var expected = State()
      for _ in 0..<sends { expected.step() }
      #expect(system.state.isWhole && system.state.count == expected.count, "\(kind): the last state")
      if monitored { #expect(reductions.current == sends) }
      system.stop()
    }

    @Test(
      "G15 red team: states of odd sizes, alignments and shapes are never read torn and never go back",
      .timeLimit(.minutes(10)), arguments: kinds)
    func statesOfEveryShape(kind: String) async {
      await check(Self.probe(kind), kind: kind, monitored: false)
    }

    @Test(
      "G10 G15 red team: a monitored system (reduceMonitored) read from every core: whole, in order, every reduction reported",
      .timeLimit(.minutes(10)), arguments: ["31 bytes", "33 bytes", "large payload", "named"])
    func monitoredSystems(kind: String) async {
      await check(Self.probe(kind), kind: kind, monitored: true)
    }

    // MARK: - Read your own writes

    @Test(
      "G15 red team: a thread that sent to an idle system reads that send's reduction, while other threads poll it",
      .timeLimit(.minutes(10)), arguments: ["31 bytes", "4 KiB", "named"])
    func readYourWrites(kind: String) async {
      await readYourWrites(Self.probe(kind), kind: kind)
    }

    func readYourWrites<State: TearProbe>(_: State.Type, kind: String) async {
      let sends = Scale.pick(kind == "4 KiB" ? 5_000 : 20_000, sanitized: 2_000)
      let system = System<State, Int>(initial: State(), reduce: { state, _ in state.step() })
      let stale = Locked(0)
      let start = Gate()
      let done = Locked(false)
      async let sender: Void = onThreads(1, startingAt: start) { _ in
        var mine = 0
        for number in 1...sends {
          system.send(number)
          // The only sender, on an idle own-isolation system: `send` has
          // reduced by the time it returns (System.send's documentation).
          if system.state.count != number { mine += 1 }
        }
        stale.withLock { $0 += mine }
        done.withLock { $0 = true }
      }
      async let readers: Void = onThreads(2, startingAt: start) { _ in
        var sum = 0
        while !done.current {
          for _ in 0..<64 { sum &+= system.state.count }
        }
        precondition(sum >= 0)
      }
      start.open()
      await sender
      await readers
      #expect(stale.current == 0, "\(kind): \(stale.current) reads right after a synchronous send missed it")
      system.stop()
    }

    // MARK: - stop()

    @Test(
      "G9 G15 red team: reads during and after stop() from every core: whole, never back, and frozen once stop() returned",
      .timeLimit(.minutes(10)), arguments: ["31 bytes", "33 bytes", "named"])
    func readsAcrossStop(kind: String) async {
      await readsAcrossStop(Self.probe(kind), kind: kind)
    }

    func readsAcrossStop<State: TearProbe>(_: State.Type, kind: String) async {
      let sends = Scale.pick(100_000, sanitized: 5_000)
      let system = System<State, Int>(initial: State(), reduce: { state, _ in state.step() })
      let stoppedAt = Locked<Int?>(nil)
      let outcome = Locked(Outcome())
      let changedAfterStop = Locked(0)
      let start = Gate()
      async let sender: Void = onThreads(1, startingAt: start) { _ in
        for number in 1...sends {
          system.send(number)
          if number == sends / 2 {
            system.stop()
            stoppedAt.withLock { $0 = system.state.count }
          }
        }
      }
      async let reading: Void = onThreads(ProcessInfo.processInfo.activeProcessorCount, startingAt: start) { _ in
        var mine = Outcome()
        var last = 0
        var afterStop = 0
        var finished = false
        while !finished {
          // Read once more after seeing the stop, then compare.
          let frozen = stoppedAt.current
          for _ in 0..<64 {
            let state = system.state
            if !state.isWhole { mine.torn += 1 }
            if state.count < last { mine.backwards += 1 }
            if let frozen, state.count != frozen { afterStop += 1 }
            last = state.count
          }
          mine.reads += 64
          finished = frozen != nil && mine.reads >= 2_048
        }
        outcome.withLock {
          $0.torn += mine.torn
          $0.backwards += mine.backwards
        }
        changedAfterStop.withLock { $0 += afterStop }
      }
      start.open()
      await sender
      await reading
      #expect(outcome.current.torn == 0, "\(kind): torn reads around stop()")
      #expect(outcome.current.backwards == 0, "\(kind): reads went back around stop()")
      #expect(changedAfterStop.current == 0, "\(kind): the state changed after stop() returned")
      #expect(system.state.count == stoppedAt.current)
      #expect(system.state.isWhole)
    }

    @Test(
      "G9 G15 red team: observers' onStop handlers read the stopping system's state while a thread sends: whole, and the final state",
      .timeLimit(.minutes(10)), arguments: ["31 bytes", "named"])
    func onStopReadsTheState(kind: String) async {
      await onStopReadsTheState(Self.probe(kind), kind: kind)
    }

    func onStopReadsTheState<State: TearProbe>(_: State.Type, kind: String) async {
      for round in 0..<Scale.pick(200, sanitized: 20) {
        let system = System<State, Int>(initial: State(), reduce: { state, _ in state.step() })
        let seenAtStop = Locked<[State]>([])
        let observations = (0..<4).map { _ in
          system.observe({ _ in }, onStop: { seenAtStop.withLock { $0.append(system.state) } })
        }
        let start = Gate()
        async let senders: Void = onThreads(2, startingAt: start) { index in
          if index == 0 {
            for number in 1...(200 + round) { system.send(number) }
          } else {
            for _ in 0..<round { _ = system.state }
            system.stop()
          }
        }
        start.open()
        await senders
        let final = system.state
        #expect(seenAtStop.current.count == 4, "\(kind): every onStop ran")
        #expect(seenAtStop.current.allSatisfy { $0.isWhole }, "\(kind): torn read in onStop")
        #expect(final.isWhole)
        #expect(
          seenAtStop.current.allSatisfy { $0.count <= final.count },
          "\(kind): onStop read a later state than the final one")
        _ = observations
      }
    }

    // MARK: - From other systems' callbacks

    @Test(
      "G15 red team: two busy systems whose reducers, feedbacks and observers read each other's state: whole, no deadlock",
      .timeLimit(.minutes(10)), arguments: ["31 bytes", "named"])
    func systemsReadingEachOther(kind: String) async {
      await systemsReadingEachOther(Self.probe(kind), kind: kind)
    }

    /// A state that also keeps how many torn reads of the other system its
    /// reducer saw.
    struct Reading<Inner: TearProbe>: Sendable {
      var inner = Inner()
      var tornSeen = 0
    }

    func systemsReadingEachOther<State: TearProbe>(_: State.Type, kind: String) async {
      let sends = Scale.pick(50_000, sanitized: 2_000)
      let torn = Locked(0)
      let peer = Locked<System<State, Int>?>(nil)
      // `first`'s reducer reads `second`'s state (another system's, which
      // is allowed: only its own is a programming error).
      let first = System<Reading<State>, Int>(
        initial: Reading(),
        reduce: { state, _ in
          state.inner.step()
          if let other = peer.current, !other.state.isWhole { state.tornSeen += 1 }
        },
        feedbacks: [
          Feedback<Reading<State>, Int>.onEvent { _, _ in
            if let other = peer.current, !other.state.isWhole { torn.withLock { $0 += 1 } }
            return .none
          }
        ])
      let second = System<State, Int>(initial: State(), reduce: { state, _ in state.step() })
      peer.withLock { $0 = second }
      let observations = [
        first.observe { _ in if !second.state.isWhole { torn.withLock { $0 += 1 } } },
        second.observe { _ in
          if !first.state.inner.isWhole { torn.withLock { $0 += 1 } }
        },
      ]
      let start = Gate()
      async let senders: Void = onThreads(2, startingAt: start) { index in
        for number in 1...sends {
          if index == 0 { first.send(number) } else { second.send(number) }
        }
      }
      start.open()
      await senders
      #expect(torn.current == 0, "\(kind): torn reads from another system's callbacks")
      #expect(first.state.tornSeen == 0, "\(kind): torn reads from another system's reducer")
      #expect(first.state.inner.count == sends && second.state.count == sends)
      _ = observations
      peer.withLock { $0 = nil }
      first.stop()
      second.stop()
    }

    // MARK: - The main actor

    @Test(
      "G15 red team: the main actor polls a busy system while its own main-actor system's observer reads it too",
      .timeLimit(.minutes(10)))
    @MainActor
    func mainActorPollsAPeer() async {
      let sends = Scale.pick(100_000, sanitized: 5_000)
      let busy = System<ThirtyOne, Int>(initial: ThirtyOne(), reduce: { state, _ in state.step() })
      let torn = Locked(0)
      let local = System<Int, Int>(
        initial: 0, reduce: { state, event in state += event }, isolation: .mainActor)
      let observation = local.observe { _ in if !busy.state.isWhole { torn.withLock { $0 += 1 } } }
      let start = Gate()
      let done = Locked(false)
      async let sender: Void = onThreads(1, startingAt: start) { _ in
        for number in 1...sends { busy.send(number) }
        done.withLock { $0 = true }
      }
      start.open()
      var reads = 0
      var last = 0
      var backwards = 0
      while !done.current || reads < 1_000 {
        let state = busy.state
        if !state.isWhole { torn.withLock { $0 += 1 } }
        if state.count < last { backwards += 1 }
        last = state.count
        local.send(1)
        reads += 1
        if reads % 256 == 0 { await Task.yield() }
      }
      await sender
      #expect(torn.current == 0)
      #expect(backwards == 0)
      #expect(local.state == reads)
      #expect(busy.state.count == sends)
      _ = observation
      busy.stop()
      local.stop()
    }

    // MARK: - Many systems, one reader

    @Test(
      "G15 red team: one thread reads 64 busy systems round-robin, and one alternates between two: every read whole, every system ends right",
      .timeLimit(.minutes(10)))
    func oneReaderManySystems() async {
      let sends = Scale.pick(5_000, sanitized: 500)
      let systems = (0..<64).map { _ in
        System<ThirtyOne, Int>(initial: ThirtyOne(), reduce: { state, _ in state.step() })
      }
      let torn = Locked(0)
      let start = Gate()
      let done = Locked(false)
      async let sender: Void = onThreads(1, startingAt: start) { _ in
        for number in 1...sends {
          for system in systems { system.send(number) }
        }
        done.withLock { $0 = true }
      }
      async let readers: Void = onThreads(2, startingAt: start) { index in
        var mine = 0
        var last = [Int](repeating: 0, count: systems.count)
        while !done.current {
          if index == 0 {
            for (number, system) in systems.enumerated() {
              let state = system.state
              if !state.isWhole || state.count < last[number] { mine += 1 }
              last[number] = state.count
            }
          } else {
            for _ in 0..<64 {
              for number in [0, 1] {
                let state = systems[number].state
                if !state.isWhole || state.count < last[number] { mine += 1 }
                last[number] = state.count
              }
            }
          }
        }
        torn.withLock { $0 += mine }
      }
      start.open()
      await sender
      await readers
      #expect(torn.current == 0)
      #expect(systems.allSatisfy { $0.state.count == sends && $0.state.isWhole })
      for system in systems { system.stop() }
    }
  }
}
