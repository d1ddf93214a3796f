import FeedbackLoop
import Foundation
import Testing

/// The loop lends the state to the feedbacks and observers of a pass
/// without copying it (`SystemCore.lendingState`): no retain and no release
/// of what the state holds. These tests attack the lending: handlers that
/// keep the state, the state's objects' lives, a reader on another thread
/// in the middle of a pass, and `stop()` from a handler.
@Suite(.runsLeftoverJobs) struct LentStateTests {
  /// Counts the instances of `Life` alive.
  final class Census: @unchecked Sendable {
    // Sendable: `count` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var count = 0

    func born() { lock.withLock { count += 1 } }
    func died() { lock.withLock { count -= 1 } }
    var alive: Int { lock.withLock { count } }
  }

  /// An object the state holds: a retain too few frees it early, a retain
  /// too many keeps it after the system is gone.
  final class Life: Sendable {
    let census: Census
    init(_ census: Census) {
      self.census = census
      census.born()
    }
    deinit { census.died() }
  }

  /// A state that holds references: an array's storage and an object.
  struct Tally: Sendable {
    var items: [Int] = []
    let life: Life
  }

  /// What the handlers kept of the states they were lent, in order.
  final class Keeper: @unchecked Sendable {
    // Sendable: `kept` is read and written only while `lock` is held.
    private let lock = NSLock()
    private var kept: [Tally] = []

    func keep(_ state: Tally) { lock.withLock { kept.append(state) } }
    var items: [[Int]] { lock.withLock { kept.map(\.items) } }
    func forget() { lock.withLock { kept.removeAll() } }
  }

  static func appending(_ state: inout Tally, _ event: Int) { state.items.append(event) }

  @Test(
    "G3 per-state feedbacks, per-event feedbacks and observers that keep the state they are lent keep it as it was, while later reductions write in place"
  )
  func keptStatesStayAsTheyWere() {
    let census = Census()
    let (perState, perEvent, observed) = (Keeper(), Keeper(), Keeper())
    do {
      let system = System<Tally, Int>(
        initial: Tally(life: Life(census)), reduce: Self.appending,
        feedbacks: [
          Feedback.observer({ { perState.keep($0) } }),
          .onEvent { _, state in
            perEvent.keep(state)
            return .none
          },
        ])
      let observation = system.observe { observed.keep($0) }
      for event in 1...4 { system.send(event) }
      #expect(system.state.items == [1, 2, 3, 4])
      observation.cancel()
      system.stop()
    }
    #expect(perState.items == [[], [1], [1, 2], [1, 2, 3], [1, 2, 3, 4]])
    #expect(perEvent.items == [[1], [1, 2], [1, 2, 3], [1, 2, 3, 4]])
    #expect(observed.items == [[], [1], [1, 2], [1, 2, 3], [1, 2, 3, 4]])
    // The system is gone; the kept copies hold the state's object.
    #expect(census.alive == 1)
    for keeper in [perState, perEvent, observed] { keeper.forget() }
    #expect(census.alive == 0)
  }

  @Test("G9 the state's objects live exactly as long as the system: not one retain or release too many across passes")
  func objectsLiveAsLongAsTheSystem() {
    let census = Census()
    let seenCounts = Keeper()
    do {
      let system = System<Tally, Int>(
        initial: Tally(life: Life(census)), reduce: Self.appending,
        feedbacks: [
          Feedback.observer({ { state in _ = state.items.count } }),
          .onEvent { _, state in
            _ = state.life
            return .none
          },
        ])
      let observation = system.observe { state in
        // Reads the lent state through and through, keeps nothing.
        precondition(state.life.census === census)
      }
      for event in 1...200 { system.send(event) }
      #expect(system.state.items.count == 200)
      #expect(census.alive == 1)
      seenCounts.keep(system.state)
      observation.cancel()
    }
    // Released: only the copy read above is left.
    #expect(census.alive == 1)
    #expect(seenCounts.items.first?.count == 200)
    seenCounts.forget()
    #expect(census.alive == 0)
  }

  @Test(
    "G15 a reader on another thread while a handler holds the lent state reads it whole, and its copy outlives the system",
    .timeLimit(.minutes(1)))
  func readerInTheMiddleOfAPass() {
    let census = Census()
    let inHandler = DispatchSemaphore(value: 0)
    let readDone = DispatchSemaphore(value: 0)
    let read = Keeper()
    do {
      let system = System<Tally, Int>(
        initial: Tally(life: Life(census)), reduce: Self.appending,
        feedbacks: [
          Feedback.observer({
            { state in
              guard state.items == [1, 2] else { return }
              // The loop is owned and in the middle of its pass: the
              // reader falls back to copying the state where it is.
              inHandler.signal()
              readDone.wait()
            }
          })
        ])
      // The thread holds the system weakly: its closure may outlive the
      // test's checks below, and must not keep the state alive.
      let reference = SystemReference()
      reference.system = system
      let reader = Thread {
        inHandler.wait()
        if let system = reference.system { read.keep(system.state) }
        readDone.signal()
      }
      reader.start()
      system.send(1)
      system.send(2)
      system.send(3)
      #expect(system.state.items == [1, 2, 3])
      system.stop()
    }
    #expect(read.items == [[1, 2]])
    #expect(census.alive == 1)
    read.forget()
    #expect(census.alive == 0)
  }

  @Test("G9 stop() from a per-state feedback ends the pass: later handlers and observers never see that state")
  func stopFromAHandlerEndsThePass() {
    let census = Census()
    let later = Keeper()
    let observed = Keeper()
    do {
      let reference = SystemReference()
      let system = System<Tally, Int>(
        initial: Tally(life: Life(census)), reduce: Self.appending,
        feedbacks: [
          Feedback.observer({
            { state in if state.items == [1, 2] { reference.system?.stop() } }
          }),
          Feedback.observer({ { later.keep($0) } }),
        ])
      reference.system = system
      let observation = system.observe { observed.keep($0) }
      for event in 1...3 { system.send(event) }
      #expect(system.state.items == [1, 2])
      observation.cancel()
    }
    #expect(later.items == [[], [1]])
    #expect(observed.items == [[], [1]])
    later.forget()
    observed.forget()
    #expect(census.alive == 0)
  }

  /// Lets a handler reach its own system.
  final class SystemReference: @unchecked Sendable {
    // Sendable: written once, before any event is sent; the send orders
    // that write before every read in the handlers. Weak: the handler holds
    // this reference, and a strong one would make a cycle.
    weak var system: System<Tally, Int>?
  }
}
