import Foundation

/// A value shared between threads and tasks, behind a lock.
final class Locked<Value>: @unchecked Sendable {
  // Sendable: `value` is read and written only inside `withLock`, under
  // `lock`, and never escapes it by reference (`Value` is copied out).
  private let lock = NSLock()
  private var value: Value

  init(_ value: Value) { self.value = value }

  func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
    lock.lock()
    defer { lock.unlock() }
    return try body(&value)
  }

  var current: Value { withLock { $0 } }
}

/// A count that tasks can wait on: `wait(untilAtLeast:)` returns once the
/// count reaches the target, whichever thread raises it. Waiting suspends the
/// task; it never blocks a thread of the cooperative pool.
final class Counter: @unchecked Sendable {
  // Sendable: `count` and `waiters` are guarded by `lock`; continuations are
  // resumed outside it.
  private let lock = NSLock()
  private var count = 0
  private var waiters: [(target: Int, continuation: CheckedContinuation<Void, Never>)] = []

  init() {}

  var value: Int {
    lock.lock()
    defer { lock.unlock() }
    return count
  }

  func add(_ amount: Int = 1) {
    lock.lock()
    count += amount
    var ready: [CheckedContinuation<Void, Never>] = []
    waiters.removeAll { waiter in
      guard waiter.target <= count else { return false }
      ready.append(waiter.continuation)
      return true
    }
    lock.unlock()
    for continuation in ready { continuation.resume() }
  }

  func wait(untilAtLeast target: Int) async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      lock.lock()
      if count >= target {
        lock.unlock()
        continuation.resume()
      } else {
        waiters.append((target, continuation))
        lock.unlock()
      }
    }
  }
}

/// A one-shot signal that threads and tasks wait on together.
///
/// A thread blocks in ``waitBlocking()``; a task suspends in ``wait()``,
/// which ignores cancellation on purpose: an effect waiting on a gate goes on
/// after it is cancelled, so a test can make it emit after its cancellation.
final class Gate: @unchecked Sendable {
  // Sendable: `opened` and `waiters` are guarded by `condition`'s lock;
  // continuations are resumed outside it.
  private let condition = NSCondition()
  private var opened = false
  private var waiters: [CheckedContinuation<Void, Never>] = []

  init() {}

  var isOpen: Bool {
    condition.lock()
    defer { condition.unlock() }
    return opened
  }

  func wait() async {
    await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
      condition.lock()
      if opened {
        condition.unlock()
        continuation.resume()
      } else {
        waiters.append(continuation)
        condition.unlock()
      }
    }
  }

  /// Blocks the calling thread until the gate opens. Never call it on a
  /// thread of the cooperative pool.
  func waitBlocking() {
    condition.lock()
    while !opened { condition.wait() }
    condition.unlock()
  }

  func open() {
    condition.lock()
    opened = true
    let waiting = waiters
    waiters = []
    condition.broadcast()
    condition.unlock()
    for waiter in waiting { waiter.resume() }
  }
}

/// Runs `body(index)` on `count` new threads (not the cooperative pool's),
/// each started once `start` opens; returns when every one has finished,
/// suspending the calling task meanwhile.
func onThreads(
  _ count: Int,
  startingAt start: Gate? = nil,
  _ body: @escaping @Sendable (Int) -> Void
) async {
  let finished = Counter()
  for index in 0..<count {
    let thread = Thread {
      start?.waitBlocking()
      body(index)
      finished.add()
    }
    thread.stackSize = 1 << 20
    thread.start()
  }
  await finished.wait(untilAtLeast: count)
}

/// Deallocation made visible: a sentinel captured by a closure counts itself
/// when the closure, and so whatever held it, is gone.
final class Sentinel: Sendable {
  let counter: Counter
  init(_ counter: Counter) { self.counter = counter }
  deinit { counter.add() }
}

/// A weak reference that can sit in an array.
struct Weak<Object: AnyObject> {
  weak var object: Object?
}

/// Whether the caller runs on the main actor, for a check that must not
/// stop the process: the main actor runs on the main dispatch queue, which
/// the probe marks. Not `Thread.isMainThread`, nor a thread remembered
/// earlier: on Linux under `swift test`, the process's first thread parks
/// in `dispatch_main()` and the main queue is drained by a worker thread of
/// libdispatch, which changes when the queue was idle a few seconds (its
/// worker exits; the next job wakes another). A main-actor test body can
/// run on one thread before an `await` and on another after it.
enum MainQueueProbe {
  static let key: DispatchSpecificKey<Bool> = {
    let key = DispatchSpecificKey<Bool>()
    DispatchQueue.main.setSpecific(key: key, value: true)
    return key
  }()

  static var isOnMainActor: Bool { DispatchQueue.getSpecific(key: key) == true }
}
