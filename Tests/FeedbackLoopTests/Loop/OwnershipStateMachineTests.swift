import Testing

@testable import FeedbackLoop

/// The ownership protocol's transitions one by one, without threads: for
/// each word a thread can read, what it does and the word it installs. The
/// interleavings are Models/ownership.pml's (Scripts/model-check); the
/// threads, ControlWordTests and the hostile suites.
@Suite("Ownership state machine", .runsLeftoverJobs)
struct OwnershipStateMachineTests {
  typealias Machine = OwnershipStateMachine
  typealias Bits = OwnershipStateMachine.Bits

  /// Every combination of the five bits.
  static let words: [UInt64] = Array(0..<32)

  @Test("G2 a send takes the loop only from an idle word, and only if it may drain")
  func takeIdleLoop() {
    #expect(Machine.takeIdleLoop(observed: 0, mayDrain: true) == Bits.owned)
    #expect(Machine.takeIdleLoop(observed: 0, mayDrain: false) == nil, "a main-actor system off the main actor")
    for word in Self.words where word != 0 {
      #expect(Machine.takeIdleLoop(observed: word, mayDrain: true) == nil, "took the loop from \(word)")
    }
  }

  @Test("G2 G15 acquiring: never from an owner, waits for a reader of the idle loop, keeps every other bit")
  func acquire() {
    for word in Self.words {
      let action = Machine.acquire(observed: word)
      if word & Bits.owned != 0 {
        #expect(action == .ownedElsewhere)
      } else if word & Bits.reader != 0 {
        #expect(action == .waitForReader)
      } else {
        #expect(action == .take(word | Bits.owned))
      }
    }
  }

  @Test("G2 G14 the owner's send: its own queue only while unbounded with nothing queued and no stop")
  func ownerSend() {
    #expect(Machine.ownerSend(observed: Bits.owned, bounded: false) == .ownQueue)
    #expect(Machine.ownerSend(observed: Bits.owned | Bits.reader, bounded: false) == .ownQueue)
    #expect(Machine.ownerSend(observed: Bits.owned | Bits.queued, bounded: false) == .sharedInbox)
    #expect(Machine.ownerSend(observed: Bits.owned | Bits.stopped, bounded: false) == .sharedInbox)
    for word in Self.words {
      #expect(Machine.ownerSend(observed: word, bounded: true) == .sharedInbox, "a bounded buffer's limit skipped")
    }
  }

  @Test("G2 G10 after queuing: an owner takes it; else the sender drains, or hops to the main actor")
  func afterQueuing() {
    for word in Self.words {
      if word & Bits.owned != 0 {
        #expect(Machine.afterQueuing(observed: word, mayDrain: true) == .ownerTakesIt)
        #expect(Machine.afterQueuing(observed: word, mayDrain: false) == .ownerTakesIt)
      } else {
        #expect(Machine.afterQueuing(observed: word, mayDrain: true) == .takeLoop)
        #expect(Machine.afterQueuing(observed: word, mayDrain: false) == .hopToMainActor)
      }
    }
  }

  @Test("G2 G9 G15 the step boundary: let go only when the word is `owned` alone; a stop wins over work")
  func step() {
    #expect(Machine.step(observed: Bits.owned) == .ownQueueOrLetGo)
    for word in Self.words where word & Bits.owned != 0 && word != Bits.owned {
      let step = Machine.step(observed: word)
      if word & Bits.stopped != 0 {
        #expect(step == .finishStopping, "\(word)")
      } else {
        #expect(step == .interrupted(publish: word & Bits.reader != 0, inbox: word & Bits.queued != 0), "\(word)")
      }
    }
  }

  @Test("G9 a pass ends when the word says stopped, whatever else it says")
  func isStopped() {
    for word in Self.words {
      #expect(Machine.isStopped(word) == (word & Bits.stopped != 0))
    }
  }

  @Test("G15 a reader copies an idle loop's state at once, and waits for an owner's publication otherwise")
  func read() {
    for word in Self.words {
      let expected: Machine.Read = word & Bits.owned == 0 ? .copyIdleState : .waitForPublication
      #expect(Machine.read(observed: word) == expected, "\(word)")
      #expect(Machine.readerWaits(word) == (word & Bits.reader != 0))
    }
  }

  @Test("G9 G15 letting a stopped loop go: a waiting reader is answered first; the state goes with a released system")
  func letGoStopped() {
    let stopped = Bits.owned | Bits.stopped
    #expect(Machine.letGoStopped(observed: stopped) == .clearOwned(Bits.stopped, destroyState: false))
    #expect(Machine.letGoStopped(observed: stopped | Bits.reader) == .publishFirst)
    #expect(
      Machine.letGoStopped(observed: stopped | Bits.released)
        == .clearOwned(Bits.stopped | Bits.released, destroyState: true))
    for word in Self.words where word & Bits.reader == 0 {
      guard case .clearOwned(let desired, _) = Machine.letGoStopped(observed: word) else {
        Issue.record("\(word) did not let go")
        continue
      }
      #expect(desired == word & ~Bits.owned, "a bit other than `owned` changed")
    }
  }

  @Test("G9 a release: tells an owner, waits for a reader of the idle loop, else takes the loop to tear down")
  func release() {
    for word in Self.words {
      let action = Machine.release(observed: word)
      if word & Bits.owned != 0 {
        #expect(action == .tellOwner(word | Bits.released))
      } else if word & Bits.reader != 0 {
        #expect(action == .waitForReader)
      } else {
        #expect(action == .takeAndTearDown(word | Bits.released | Bits.owned))
      }
    }
  }

  @Test("G2 queued work is drained by a new owner only when no thread owns the loop")
  func shouldDrainQueuedWork() {
    for word in Self.words {
      #expect(Machine.shouldDrainQueuedWork(observed: word) == (word & Bits.queued != 0 && word & Bits.owned == 0))
    }
  }
}
