import Testing

@testable import FeedbackLoop

/// The effect bookkeeping's transitions one by one, without tasks: for each
/// call, what the book says to do and what it then answers to "was this
/// effect cancelled?". The runtimes that do what it says (tasks, monitor,
/// watermark slot) are held by the guarantee suites (G4, G6, G7).
@Suite("Effect book", .runsLeftoverJobs)
struct EffectBookTests {
  /// One effect after another: no keys; a handle is a plain number.
  typealias Sequential = EffectBook<Never, Int, String>
  /// One effect per key.
  typealias Keyed = EffectBook<String, Int, Never>

  // MARK: - Numbering

  @Test("effects are numbered from 1, in order; 0, a feedback's own task, is never cancelled")
  func numbering() {
    var book = Sequential()
    #expect(book.nextNumber() == 1)
    #expect(book.nextNumber() == 2)
    #expect(book.lastNumber == 2)
    _ = book.cancelAll()
    #expect(!book.isCancelled(0))
  }

  @Test("G4 numbering at the top of the range: the last number is cancelled by a watermark at the maximum, none wraps")
  func numberingAtTheLimit() {
    var book = Sequential(lastNumber: .max - 1)
    #expect(book.admit(queueing: false) == .start(.max))
    book.started(.max, handle: 7)
    #expect(!book.isCancelled(.max))
    let someRan = book.cancelAll()
    #expect(someRan)
    #expect(book.cancelledThrough == .max)
    #expect(book.isCancelled(.max))
    #expect(book.isCancelled(1))
    #expect(!book.isCancelled(0))
  }

  // MARK: - One effect after another

  @Test("G7 start: an effect is admitted to start now unless it queues behind another")
  func admitAndStart() {
    var book = Sequential()
    #expect(book.admit(queueing: false) == .start(1))
    book.started(1, handle: 10)
    #expect(book.hasRunningOrWaiting)
    // Merge: side by side.
    #expect(book.admit(queueing: false) == .start(2))
    book.started(2, handle: 20)
    #expect(book.running == [1: 10, 2: 20])
    // Queue: behind the running ones.
    #expect(book.admit(queueing: true) == .wait(3))
    book.wait(3, effect: "third")
    #expect(book.waiting.map(\.number) == [3])
    #expect(!book.isCancelled(1) && !book.isCancelled(2) && !book.isCancelled(3))
  }

  @Test("G7 queue: the next waiting effect starts only when none runs, in the order they waited")
  func queueTakesTurns() {
    var book = Sequential()
    #expect(book.admit(queueing: true) == .start(1))
    book.started(1, handle: 1)
    #expect(book.admit(queueing: true) == .wait(2))
    book.wait(2, effect: "second")
    #expect(book.admit(queueing: true) == .wait(3))
    book.wait(3, effect: "third")
    #expect(book.nextWaiting(queueing: true) == nil, "one still runs")
    let firstRan = book.finish(1)
    #expect(firstRan)
    #expect(book.nextWaiting(queueing: false) == nil, "only a queue takes turns")
    let next = book.nextWaiting(queueing: true)
    #expect(next?.number == 2 && next?.effect == "second")
    book.started(2, handle: 2)
    #expect(book.nextWaiting(queueing: true) == nil)
  }

  @Test("finish: a running effect's end is reported once; an unknown number changes nothing")
  func finish() {
    var book = Sequential()
    _ = book.admit(queueing: false)
    book.started(1, handle: 1)
    let ended = book.finish(1)
    #expect(ended)
    let endedTwice = book.finish(1)
    #expect(!endedTwice, "ended twice")
    let endedUnknown = book.finish(42)
    #expect(!endedUnknown, "never started")
    #expect(!book.hasRunningOrWaiting)
    #expect(!book.isCancelled(1), "finished is not cancelled")
  }

  @Test("G4 cancel all: the watermark rises to the last number, running and waiting effects are removed in order")
  func cancelAll() {
    var book = Sequential()
    for number in UInt64(1)...3 {
      #expect(book.admit(queueing: false) == .start(number))
      book.started(number, handle: Int(number) * 10)
    }
    #expect(book.admit(queueing: true) == .wait(4))
    book.wait(4, effect: "fourth")
    // An immediate effect: numbered, never running.
    #expect(book.admit(queueing: false) == .start(5))
    let someRan = book.cancelAll()
    #expect(someRan)
    #expect(book.cancelledThrough == 5)
    let removed = book.removeRunningAndWaiting()
    #expect(removed.map(\.number) == [1, 2, 3, 4])
    #expect(removed.map(\.handle) == [10, 20, 30, nil])
    #expect(!book.hasRunningOrWaiting)
    for number in UInt64(1)...5 { #expect(book.isCancelled(number)) }
    // A later effect is live.
    #expect(book.admit(queueing: false) == .start(6))
    #expect(!book.isCancelled(6))
  }

  @Test("G4 cancel all with nothing running only raises the watermark")
  func cancelAllIdle() {
    var book = Sequential()
    let someRanIdle = book.cancelAll()
    #expect(!someRanIdle)
    #expect(book.cancelledThrough == 0)
    _ = book.admit(queueing: false)
    let someRanImmediate = book.cancelAll()
    #expect(!someRanImmediate, "an immediate effect has nothing to cancel")
    #expect(book.cancelledThrough == 1)
    #expect(book.isCancelled(1))
  }

  @Test("G4 finish after cancel: the cancelled effect's end is not reported, and queues nothing")
  func finishAfterCancel() {
    var book = Sequential()
    _ = book.admit(queueing: true)
    book.started(1, handle: 1)
    _ = book.admit(queueing: true)
    book.wait(2, effect: "second")
    _ = book.cancelAll()
    _ = book.removeRunningAndWaiting()
    let ranAfterCancel = book.finish(1)
    #expect(!ranAfterCancel)
    #expect(book.nextWaiting(queueing: true) == nil)
    #expect(book.isCancelled(1) && book.isCancelled(2))
  }

  @Test("G4 replace: cancel previous then start, the old effect's late end changes nothing for the new one")
  func replaceDuringFinish() {
    var book = Sequential()
    _ = book.admit(queueing: false)
    book.started(1, handle: 1)
    // A new trigger under `.cancelPrevious`, while effect 1's end is on its way.
    let someRan = book.cancelAll()
    #expect(someRan)
    _ = book.removeRunningAndWaiting()
    #expect(book.admit(queueing: false) == .start(2))
    book.started(2, handle: 2)
    let replacedRan = book.finish(1)
    #expect(!replacedRan, "the replaced effect's end")
    #expect(book.running == [2: 2])
    #expect(book.isCancelled(1) && !book.isCancelled(2))
  }

  // MARK: - One effect per key

  @Test("G6 start per key: a key's effect is requested, live, and its key known until it ends")
  func requestKey() {
    var book = Keyed()
    let number = book.nextNumber()
    #expect(book.request("a", number: number, handle: 1, finished: false) == nil)
    #expect(book.isRequested("a"))
    #expect(book.requestedKeys == ["a"])
    #expect(book.key(of: number) == "a")
    #expect(!book.isCancelled(number))
  }

  @Test(
    "G6 an effect that does nothing is requested finished: no end is awaited, it is not cancelled when its key goes")
  func requestFinishedAtOnce() {
    var book = Keyed()
    let number = book.nextNumber()
    book.request("a", number: number, handle: nil, finished: true)
    #expect(book.key(of: number) == nil)
    let cancelled = book.cancel("a")
    #expect(cancelled?.finished == true)
    #expect(!book.isCancelled(number))
    #expect(book.cancelled.isEmpty)
  }

  @Test("G6 finish per key: the key stays requested, finished, and is not restarted; its handle is handed back once")
  func finishKey() {
    var book = Keyed()
    let number = book.nextNumber()
    book.request("a", number: number, handle: 1, finished: false)
    guard case .finished(let key, let handle) = book.end(number) else {
      Issue.record("not finished")
      return
    }
    #expect(key == "a" && handle == 1)
    #expect(book.isRequested("a"))
    #expect(book.requests["a"]?.finished == true)
    #expect(book.requests["a"]?.handle == nil)
    guard case .unknown = book.end(number) else {
      Issue.record("ended twice")
      return
    }
    // Its key goes: nothing to cancel.
    #expect(book.cancel("a")?.finished == true)
    #expect(!book.isCancelled(number))
  }

  @Test("G4 G6 cancel per key: the effect's events are dropped until its end, which is then forgotten")
  func cancelKey() {
    var book = Keyed()
    let first = book.nextNumber()
    book.request("a", number: first, handle: 1, finished: false)
    let second = book.nextNumber()
    book.request("b", number: second, handle: 2, finished: false)
    let cancelled = book.cancel("a")
    #expect(cancelled?.number == first && cancelled?.handle == 1 && cancelled?.finished == false)
    #expect(book.isCancelled(first))
    #expect(!book.isCancelled(second), "the other key's effect")
    #expect(!book.isRequested("a"))
    guard case .cancelled = book.end(first) else {
      Issue.record("a cancelled effect's end was reported")
      return
    }
    #expect(!book.isCancelled(first), "forgotten once its end came: nothing of it can come after")
    #expect(book.key(of: first) == nil)
  }

  @Test("cancel of an unknown key, or a key cancelled twice, changes nothing")
  func cancelUnknown() {
    var book = Keyed()
    #expect(book.cancel("nobody") == nil)
    let number = book.nextNumber()
    book.request("a", number: number, handle: 1, finished: false)
    #expect(book.cancel("a") != nil)
    #expect(book.cancel("a") == nil)
    #expect(book.cancelled == [number])
    var sequential = Sequential()
    let unknownRan = sequential.finish(3)
    #expect(!unknownRan)
    #expect(sequential.removeRunningAndWaiting().isEmpty)
  }

  @Test("G4 G6 finish after cancel per key: the end is not reported and does not touch the key's new effect")
  func keyFinishAfterCancelAndRestart() {
    var book = Keyed()
    let old = book.nextNumber()
    book.request("a", number: old, handle: 1, finished: false)
    _ = book.cancel("a")
    // The key comes back before the old effect's end arrives.
    let new = book.nextNumber()
    book.request("a", number: new, handle: 2, finished: false)
    guard case .cancelled = book.end(old) else {
      Issue.record("the old effect's end was reported")
      return
    }
    #expect(book.requests["a"]?.number == new)
    #expect(book.requests["a"]?.finished == false)
    #expect(!book.isCancelled(new))
    guard case .finished(let key, let handle) = book.end(new) else {
      Issue.record("the new effect's end was lost")
      return
    }
    #expect(key == "a" && handle == 2)
  }

  @Test("G4 G6 replace per key without a cancel first: the replaced effect is cancelled, not left running unseen")
  func replaceKey() {
    var book = Keyed()
    let old = book.nextNumber()
    book.request("a", number: old, handle: 1, finished: false)
    let new = book.nextNumber()
    let replaced = book.request("a", number: new, handle: 2, finished: false)
    #expect(replaced?.number == old && replaced?.handle == 1)
    #expect(book.isCancelled(old))
    #expect(!book.isCancelled(new))
    guard case .cancelled = book.end(old) else {
      Issue.record("the replaced effect's end was reported")
      return
    }
    #expect(book.requests["a"]?.number == new)
  }

  @Test("G4 an effect numbered above the watermark is live in either shape; a keyed book never raises its watermark")
  func oneAnswer() {
    var keyed = Keyed()
    for key in ["a", "b", "c"] {
      keyed.request(key, number: keyed.nextNumber(), handle: nil, finished: false)
    }
    _ = keyed.cancel("b")
    #expect(keyed.cancelledThrough == 0)
    #expect([1, 2, 3].map { keyed.isCancelled($0) } == [false, true, false])
    #expect(!keyed.isCancelled(4), "not started yet")
  }
}
