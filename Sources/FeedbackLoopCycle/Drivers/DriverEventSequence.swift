/// A driver's events as the router's: each event boxed with the driver's
/// name, then one last ``CycleEvent/driverEnded(_:)`` or
/// ``CycleEvent/driverFailed(_:message:)`` when the driver's sequence ends
/// or throws, so that the end is reduced, and seen by the monitor, like any
/// event. Cancellation (the router stopping) ends it silently.
@usableFromInline
struct DriverEventSequence<Base: AsyncSequence & Sendable>: AsyncSequence, Sendable where Base.Element: Sendable {
  @usableFromInline typealias Element = CycleEvent

  @usableFromInline let base: Base
  @usableFromInline let name: String
  @usableFromInline let wire: Int

  @inlinable
  init(base: Base, name: String, wire: Int) {
    self.base = base
    self.name = name
    self.wire = wire
  }

  @usableFromInline
  struct AsyncIterator: AsyncIteratorProtocol {
    @usableFromInline var base: Base.AsyncIterator
    @usableFromInline let name: String
    @usableFromInline let wire: Int
    @usableFromInline var isFinished = false

    @inlinable
    init(base: Base.AsyncIterator, name: String, wire: Int) {
      self.base = base
      self.name = name
      self.wire = wire
    }

    @inlinable
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

  @inlinable
  func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(base: base.makeAsyncIterator(), name: name, wire: wire)
  }
}
