import DequeModule
import FeedbackLoop

/// The events a driver reports, as a sequence a router iterates: events
/// sent with ``send(_:)`` wait in order until a router takes them, and a
/// router that stops leaves the rest for the next run of the same driver.
///
/// An `AsyncStream` is iterated once: a driver whose events are one serves
/// one router, and its events are used up when that router stops. Each
/// iteration of `DriverEvents` takes from the same queue instead, so a
/// driver instance serves a second run (a screen kept by a view while its
/// application restarts). Two routers running at once each take different
/// events, in the order they asked.
///
/// ```swift
/// final class Buttons: Driver {
///   let events = DriverEvents<Button>()
///   func render(_ model: Bool) {}
///   func tap(_ button: Button) { events.send(button) }
/// }
/// ```
public struct DriverEvents<Event: Sendable>: AsyncSequence, Sendable {
  private let channel = Channel()

  /// An empty queue of events.
  public init() {}

  /// Reports `event`: the router running takes it, or the next one does.
  /// An event sent after ``finish()`` is dropped.
  public func send(_ event: Event) {
    channel.send(event)
  }

  /// Ends the events: every router running, and every later one, reduces
  /// the driver's end once the queued events are taken.
  public func finish() {
    channel.finish()
  }

  public func makeAsyncIterator() -> AsyncIterator {
    AsyncIterator(channel: channel)
  }

  /// Takes the next event; returns `nil` when the events are finished or
  /// the task iterating is cancelled (its router stopped).
  public struct AsyncIterator: AsyncIteratorProtocol {
    fileprivate let channel: Channel

    public mutating func next() async -> Event? {
      await channel.next()
    }
  }

  fileprivate final class Channel: Sendable {
    private struct Waiter {
      let id: UInt64
      let continuation: CheckedContinuation<Event?, Never>
    }

    private struct State {
      var queued = Deque<Event>()
      var waiters = Deque<Waiter>()
      var nextID: UInt64 = 0
      var isFinished = false
    }

    private let state = Locked(State())

    func send(_ event: Event) {
      let waiter: Waiter? = state.withLock { state in
        guard !state.isFinished else { return nil }
        if let waiter = state.waiters.popFirst() { return waiter }
        state.queued.append(event)
        return nil
      }
      waiter?.continuation.resume(returning: event)
    }

    func finish() {
      let waiters = state.withLock { state in
        state.isFinished = true
        defer { state.waiters.removeAll() }
        return state.waiters
      }
      for waiter in waiters { waiter.continuation.resume(returning: nil) }
    }

    func next() async -> Event? {
      let id = state.withLock { state in
        defer { state.nextID &+= 1 }
        return state.nextID
      }
      return await withTaskCancellationHandler {
        await withCheckedContinuation { continuation in
          let immediate: Event?? = state.withLock { state in
            if let event = state.queued.popFirst() { return .some(event) }
            // Cancelled before it waited: the handler below found no waiter.
            if state.isFinished || Task.isCancelled { return .some(nil) }
            state.waiters.append(Waiter(id: id, continuation: continuation))
            return .none
          }
          if let immediate { continuation.resume(returning: immediate) }
        }
      } onCancel: {
        let waiter = state.withLock { state -> Waiter? in
          guard let index = state.waiters.firstIndex(where: { $0.id == id }) else { return nil }
          return state.waiters.remove(at: index)
        }
        waiter?.continuation.resume(returning: nil)
      }
    }
  }
}
