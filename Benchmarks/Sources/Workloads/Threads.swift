import Foundation
import Synchronization

/// Threads of their own (not the cooperative pool's), made before the
/// measured part of a trial and held at a gate, so that what is timed is the
/// work and not the making of threads: ``start()`` opens the gate,
/// ``join()`` returns when every thread has finished.
final class GatedThreads: Sendable {
  private let gate = DispatchSemaphore(value: 0)
  private let finished = DispatchSemaphore(value: 0)
  private let count: Int

  init(_ count: Int, _ body: @escaping @Sendable (Int) -> Void) {
    self.count = count
    for index in 0..<count {
      let thread = Thread { [gate, finished] in
        gate.wait()
        body(index)
        finished.signal()
      }
      thread.stackSize = 1 << 20
      thread.start()
    }
  }

  func start() {
    for _ in 0..<count { gate.signal() }
  }

  func join() {
    for _ in 0..<count { finished.wait() }
  }
}

/// A flag one thread raises and others poll, without a lock.
final class Flag: Sendable {
  private let raised = Atomic<Bool>(false)
  var isRaised: Bool { raised.load(ordering: .acquiring) }
  func raise() { raised.store(true, ordering: .releasing) }
}

/// A counter threads add to when they finish.
final class Tally: Sendable {
  private let total = Atomic<Int>(0)
  var value: Int { total.load(ordering: .acquiring) }
  func add(_ amount: Int) { total.add(amount, ordering: .acquiringAndReleasing) }
}
