import FeedbackLoop

/// An event as a cluster stores it in a system's journal: the user's event,
/// with who sent it through the inbox and its place in that sender's events
/// to the system.
///
/// The events a system's own feedbacks emit come from no sender: they are
/// re-derived from the state after a restore, never delivered twice.
///
/// ```swift
/// let delivered = Delivery(sender: "node-a", sequence: 3, event: CartEvent.pay)
/// ```
public struct Delivery<Event: Sendable>: Sendable {
  /// The node run that sent the event through the inbox; `nil` for an
  /// event of the system's own feedbacks.
  public var sender: String?
  /// The event's place among the sender's events: increasing per sender
  /// and system, from 1, not necessarily consecutive.
  public var sequence: UInt64
  /// The user's event.
  public var event: Event
  /// Senders whose records (``DeliveredState/lastSequences``) the state
  /// drops before it reduces this event: nodes gone from the cluster with
  /// no row left in the inbox for the system, so that none of their events
  /// can be delivered again. Empty for most deliveries.
  public var forgetting: [String]

  /// A delivered event.
  ///
  /// ```swift
  /// let delivered = Delivery(sender: "node-a", sequence: 3, event: CartEvent.pay, forgetting: ["node-old"])
  /// ```
  public init(sender: String?, sequence: UInt64, event: Event, forgetting: [String] = []) {
    self.sender = sender
    self.sequence = sequence
    self.event = event
    self.forgetting = forgetting
  }
}

// By hand rather than synthesized: `forgetting` is stored only when it holds
// something, and a journal written before it existed still decodes.
extension Delivery: Codable where Event: Codable {
  private enum CodingKeys: String, CodingKey {
    case sender, sequence, event, forgetting
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    sender = try container.decodeIfPresent(String.self, forKey: .sender)
    sequence = try container.decode(UInt64.self, forKey: .sequence)
    event = try container.decode(Event.self, forKey: .event)
    forgetting = try container.decodeIfPresent([String].self, forKey: .forgetting) ?? []
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encodeIfPresent(sender, forKey: .sender)
    try container.encode(sequence, forKey: .sequence)
    try container.encode(event, forKey: .event)
    if !forgetting.isEmpty { try container.encode(forgetting, forKey: .forgetting) }
  }
}
extension Delivery: Equatable where Event: Equatable {}

/// A system's state as a cluster stores it: the user's state, and for each
/// sender the last of its events the state has reduced.
///
/// The record makes a delivery idempotent where it matters, in the state
/// that the journal stores: an event delivered again after a crash (stored
/// in the journal, its inbox row not yet deleted) is reduced as nothing.
/// It is in every snapshot and in the fold of every restore.
///
/// ```swift
/// let cart = DeliveredState(state: Cart())
/// ```
public struct DeliveredState<State: Sendable>: Sendable {
  /// The user's state.
  public var state: State
  /// The last sequence reduced, per sender: the live nodes that sent to
  /// the system, and the gone ones whose rows may still be in the inbox.
  /// A gone sender's record is dropped by a later delivery
  /// (``Delivery/forgetting``) once no row of it is left, so the record
  /// does not grow with every node run that ever sent to the system.
  public var lastSequences: [String: UInt64]

  /// A state with nothing delivered yet.
  public init(state: State, lastSequences: [String: UInt64] = [:]) {
    self.state = state
    self.lastSequences = lastSequences
  }

  /// Reduces `delivery` with `reduce`, unless its sender's sequence was
  /// reduced already.
  mutating func reduce<Event: Sendable>(_ delivery: Delivery<Event>, with reduce: (inout State, Event) -> Void) {
    for sender in delivery.forgetting { lastSequences[sender] = nil }
    if let sender = delivery.sender {
      guard delivery.sequence > lastSequences[sender, default: 0] else { return }
      lastSequences[sender] = delivery.sequence
    }
    reduce(&state, delivery.event)
  }
}

extension DeliveredState: Codable where State: Codable {}
extension DeliveredState: Equatable where State: Equatable {}

/// The way between a system's own events and the deliveries its journal
/// stores, to lift the user's feedbacks: their events come from no sender.
struct ToDelivery<Event: Sendable>: EventCase {
  func embed(_ child: Event) -> Delivery<Event> { Delivery(sender: nil, sequence: 0, event: child) }
  func extract(_ parent: Delivery<Event>) -> Event? { parent.event }
}
