/// How a store's events reach its root system.
///
/// A scoped store's send maps its event level by level up to the root's
/// event type, one closure per level. If the last level sent the root's
/// event to the system from there, the system's whole loop (the reducer,
/// the feedbacks, every store's new state) would run under those levels'
/// stack frames, and a view ten levels deep runs a reducer that nests ten
/// levels too: together more calls deep than the processor's return-address
/// predictor holds (about 30 here), and every return past it mispredicts. A
/// scoped store's send cost about 15 ns more for each level after the
/// first, ten levels 2.6 to 2.8 times a root store's send (BENCHMARKS.md,
/// "W12scoped: a scoped store's send no longer nests the loop under its
/// levels"). So the `send` of a store scoped two or more levels deep
/// leaves the root's event at the root (`park`), and sends it to the
/// system only once the levels have returned (`deliverParked`), from the
/// frame of the store's own `send`.
///
/// Nothing runs between the two but returns: the mapping closures have all
/// run when the root's event is parked. A mapping that itself sends through
/// another store parks and delivers its own event before it returns, so the
/// slot is empty again when the outer event is parked.
@usableFromInline
@MainActor
struct EventRoute<Event> {
  /// Sends an event: to the system, for a root store and its projections;
  /// for a scoped store, through ``park`` and then ``deliverParked``.
  @usableFromInline let send: @MainActor (Event) -> Void
  /// Where a store scoped from this one leaves its event, mapped to this
  /// store's event: parked at the root.
  @usableFromInline let park: @MainActor (Event) -> Void
  /// Sends to the system the root's event that ``park`` left.
  @usableFromInline let deliverParked: @MainActor () -> Void
  /// Whether ``send`` reaches the system itself (a root store and its
  /// projections).
  @usableFromInline let sendsToTheSystem: Bool

  @usableFromInline
  init(
    send: @escaping @MainActor (Event) -> Void, park: @escaping @MainActor (Event) -> Void,
    deliverParked: @escaping @MainActor () -> Void, sendsToTheSystem: Bool
  ) {
    self.send = send
    self.park = park
    self.deliverParked = deliverParked
    self.sendsToTheSystem = sendsToTheSystem
  }

  /// A root store's route: its events go to the system through `forward`,
  /// and so do the parked events of the stores scoped from it.
  @inlinable
  static func root(forward: @escaping @MainActor (Event) -> Void) -> EventRoute {
    let slot = ParkedEvent<Event>()
    return EventRoute(
      send: forward,
      park: { event in slot.event = event },
      deliverParked: {
        if let event = slot.event.take() { forward(event) }
      },
      sendsToTheSystem: true)
  }

  /// The route of a store scoped from this one, whose events `toEvent`
  /// maps to this store's. Inlined where the store is scoped, so that its
  /// closures are specialized there for the child's event.
  ///
  /// A store scoped straight from the root sends its mapped event to the
  /// system itself: one level of frames is no deeper than the delivery's,
  /// and parking would cost it a slot's write and read. Deeper, the
  /// child's send is one closure that parks and then delivers, rather than
  /// the store calling two: an optional second closure read from the store
  /// at each send was retained and released around its call.
  @inlinable @inline(__always)
  func scoped<ChildEvent>(_ toEvent: @escaping (ChildEvent) -> Event) -> EventRoute<ChildEvent> {
    let (park, deliverParked) = (self.park, self.deliverParked)
    let parkMapped: @MainActor (ChildEvent) -> Void = { event in park(toEvent(event)) }
    let send: @MainActor (ChildEvent) -> Void
    if sendsToTheSystem {
      let sendToTheSystem = self.send
      send = { event in sendToTheSystem(toEvent(event)) }
    } else {
      send = { event in
        parkMapped(event)
        deliverParked()
      }
    }
    return EventRoute<ChildEvent>(
      send: send, park: parkMapped, deliverParked: deliverParked, sendsToTheSystem: false)
  }
}

/// The root's event between a scoped store's mapping and its delivery
/// (``EventRoute``).
@usableFromInline
@MainActor
final class ParkedEvent<Event> {
  // Exclusivity unchecked: only the main actor touches it (the class is
  // isolated to it), and each access is instantaneous (a store or a
  // `take()`, which call no other code), so no two accesses overlap. The
  // dynamic checks were a tenth of a scoped store's send.
  @usableFromInline @exclusivity(unchecked) var event: Event?

  @usableFromInline init() {}
}
