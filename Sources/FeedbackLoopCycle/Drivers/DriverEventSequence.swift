/// A driver's events as the router's: each event boxed with the driver's
/// name, then one last ``CycleEvent/driverEnded(_:)`` or
/// ``CycleEvent/driverFailed(_:message:)`` when the driver's sequence ends
/// or throws, so that the end is reduced, and seen by the monitor, like any
/// event. Cancellation (the router stopping) ends it silently.
struct DriverEventSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
  typealias Element = CycleEvent

  let base: Base
  let name: String
  let wire: Int

  struct AsyncIterator: AsyncIteratorProtocol {
    var base: Base.AsyncIterator
    let name: String
    let wire: Int
    var isFinished = false

    mutating func next() async -> CycleEvent? {
      guard !isFinished else { return nil }
      do {
        if let event = try await base.next() {
          return .driver(DriverEvent(driver: name, event: event, wire: wire))
        }
        isFinished = true
        return Task.isCancelled ? nil : .driverEnded(name)
      } catch {
        isFinished = true
        return Task.isCancelled ? nil : .driverFailed(name, message: "\(error)")
      }
    }
  }

  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: base.makeAsyncIterator(), name: name, wire: wire)
  }
}
