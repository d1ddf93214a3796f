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

  /// - Parameter firstProcessor: where given, thread `i` runs only on
  ///   processor `(firstProcessor + i) % processors` (Linux): two threads
  ///   meant to run at once then never share a processor while another
  ///   idles, which the scheduler did for whole trials of W10 (a reader
  ///   timed alone, the sender waiting for its turn).
  init(_ count: Int, pinnedFrom firstProcessor: Int? = nil, _ body: @escaping @Sendable (Int) -> Void) {
    self.count = count
    for index in 0..<count {
      let thread = Thread { [gate, finished] in
        if let firstProcessor { pinCurrentThread(to: firstProcessor + index) }
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

/// Keeps the calling thread on one processor (modulo the processors
/// online); does nothing where the platform has no affinity call.
func pinCurrentThread(to processor: Int) {
  #if os(Linux)
    let online = Int(sysconf(Int32(_SC_NPROCESSORS_ONLN)))
    guard online > 1 else { return }
    // A `cpu_set_t` (1,024 bits); Glibc's module leaves the GNU call and
    // its macros out.
    var set = [UInt8](repeating: 0, count: 128)
    let cpu = processor % online
    set[cpu / 8] |= UInt8(1 << (cpu % 8))
    _ = set.withUnsafeBytes { setAffinity(0, $0.count, $0.baseAddress!) }
  #endif
}

#if os(Linux)
  @_silgen_name("sched_setaffinity")
  private func setAffinity(_ thread: Int32, _ size: Int, _ set: UnsafeRawPointer) -> Int32
#endif
