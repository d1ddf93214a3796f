// A feedback lifted by id through a `LeafPath`, as a path that further lifts
// compose: a feature that holds children by id, lifted into a parent (at a
// stored property, or an optional one), keeps its by-id runtime
// (`ByIDLeafRuntime`) and reaches its children by one byte offset and the
// optionals' checks, instead of the recipe's closures, which copied each
// level's state on every state (the nested-lifts benchmark's mixed tree:
// about 800 ns an event, nearly all of it there).
//
// The types of the children (`ID`, `Child`) are hidden from the parents'
// lifts, so a lift goes through the protocol, once, when the feature is
// lifted; the runtime it makes is the same class as the top-level form's.

/// A by-id feedback's way from `State` to its children, liftable further.
@usableFromInline
protocol ByIDPath<State, Event>: Sendable {
  associatedtype State: Sendable
  associatedtype Event: Sendable

  /// The feedback for a system of `State`, named `name`.
  func feedback(name: String) -> Feedback<State, Event>

  /// This path one level up: the children's state at `offset` bytes
  /// further (a stored property's offset), behind `presence` if that level
  /// is an optional, and their events embedded by `embed` and taken back
  /// by `extract`.
  func lifted<Parent: Sendable, ParentEvent: Sendable>(
    offset: Int, presence: PresenceCheck?, embed: @escaping @Sendable (Event) -> ParentEvent,
    extract: @escaping @Sendable (ParentEvent) -> Event?
  ) -> any ByIDPath<Parent, ParentEvent>
}

/// A leaf path's logic over children by id, at a byte offset inside
/// `State`, behind optionals; `ChildEvent` is the leaf path's event (a
/// child's, for an event feedback's logic).
@usableFromInline
struct ByIDLeafPath<State: Sendable, Event: Sendable, ID: Hashable & Sendable, Child: Sendable, ChildEvent: Sendable>:
  ByIDPath
{
  /// The child's feedback: its logic, a new child's memory, and where its
  /// own state is inside the child's (see `LeafPath`).
  @usableFromInline let logic: LeafLogic
  @usableFromInline let makeMemory: @Sendable () -> LeafMemory
  @usableFromInline let leafOffset: Int
  @usableFromInline let leafPresence: [PresenceCheck]
  /// The effect in a tracker's box, as `State`'s events of child `id`.
  @usableFromInline let effect: @Sendable (ID, EffectTrigger) -> Effect<Event>
  /// The leaf path's event logic, `presenceOnly` and `requestsPerChild`
  /// (see `LeafPath`).
  @usableFromInline let eventLogic: LeafEventLogic?
  @usableFromInline let presenceOnly: Bool
  @usableFromInline let requestsPerChild: Bool
  /// A child's id and event in one of `State`'s events, for the event logic.
  @usableFromInline let extract: @Sendable (Event) -> (ID, ChildEvent)?
  /// Where the children are, in bytes from the start of `State`, and the
  /// optionals on the way, outermost first.
  @usableFromInline let childrenOffset: Int
  @usableFromInline let childrenPresence: [PresenceCheck]

  @inlinable
  init(
    logic: @escaping LeafLogic, makeMemory: @escaping @Sendable () -> LeafMemory, leafOffset: Int,
    leafPresence: [PresenceCheck], effect: @escaping @Sendable (ID, EffectTrigger) -> Effect<Event>,
    eventLogic: LeafEventLogic?, presenceOnly: Bool, requestsPerChild: Bool,
    extract: @escaping @Sendable (Event) -> (ID, ChildEvent)?, childrenOffset: Int, childrenPresence: [PresenceCheck]
  ) {
    self.logic = logic
    self.makeMemory = makeMemory
    self.leafOffset = leafOffset
    self.leafPresence = leafPresence
    self.effect = effect
    self.eventLogic = eventLogic
    self.presenceOnly = presenceOnly
    self.requestsPerChild = requestsPerChild
    self.extract = extract
    self.childrenOffset = childrenOffset
    self.childrenPresence = childrenPresence
  }

  @usableFromInline
  func feedback(name: String) -> Feedback<State, Event> {
    requestsPerChild ? feedback(ByChildRequest<ID>.self, name: name) : feedback(ByChild<ID>.self, name: name)
  }

  /// ``feedback(name:)`` with its table keyed by `Keying`.
  @usableFromInline
  func feedback<Keying: ByIDKeying>(_ keying: Keying.Type, name: String) -> Feedback<State, Event>
  where Keying.ID == ID {
    let path = self
    return Feedback(name: name, kind: "byID", fileID: #fileID, line: #line) { id, core in
      let runtime = ByIDLeafRuntime<State, Event, ID, Child, Keying>(
        id: id, core: core, logic: path.logic, makeMemory: path.makeMemory, offset: path.leafOffset,
        presence: path.leafPresence, effect: path.effect, presenceOnly: path.presenceOnly)
      let runner = Unmanaged.passUnretained(runtime)
      let (offset, presence) = (path.childrenOffset, path.childrenPresence)
      runtime.onEachState { _, stored in
        // The offsets are stored properties' (`MemoryLayout.offset(of:)`
        // gave them) and each optional is checked before the path goes
        // into it, so the sum is the children, inside the state, for the
        // call's duration.
        let base = UnsafeRawPointer(stored)
        for check in presence where !check.isPresent(base + check.offset) {
          // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
          runner._withUnsafeGuaranteedRef { $0.onChildrenGone() }
          return
        }
        let children = (base + offset).assumingMemoryBound(to: TrackedDictionary<ID, Child>.self)
        // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
        runner._withUnsafeGuaranteedRef { if !$0.sawChildren(children) { $0.onChildren(children) } }
      }
      if let eventLogic = path.eventLogic {
        let extract = path.extract
        runtime.onEachEvent { event, _, stored in
          guard let (child, own) = extract(event) else { return }
          // As above: the children, inside the state, while they are
          // there, and the child's event, for the call's duration.
          let base = UnsafeRawPointer(stored)
          for check in presence where !check.isPresent(base + check.offset) { return }
          let children = (base + offset).assumingMemoryBound(to: TrackedDictionary<ID, Child>.self)
          withUnsafePointer(to: own) { own in
            // Unretained `runner`: the system keeps this handler and its runtime alive while it can run.
            runner._withUnsafeGuaranteedRef {
              $0.onEvent(UnsafeRawPointer(own), of: child, children, logic: eventLogic)
            }
          }
        }
      }
      return runtime
    }
  }

  @usableFromInline
  func lifted<Parent: Sendable, ParentEvent: Sendable>(
    offset: Int, presence: PresenceCheck?, embed: @escaping @Sendable (Event) -> ParentEvent,
    extract outer: @escaping @Sendable (ParentEvent) -> Event?
  ) -> any ByIDPath<Parent, ParentEvent> {
    let (effect, extract) = (self.effect, self.extract)
    let moved = childrenPresence.map { PresenceCheck(offset: offset + $0.offset, isPresent: $0.isPresent) }
    return ByIDLeafPath<Parent, ParentEvent, ID, Child, ChildEvent>(
      logic: logic, makeMemory: makeMemory, leafOffset: leafOffset, leafPresence: leafPresence,
      effect: { id, box in
        let inner = effect(id, box)
        if case .none = inner.operation { return Effect<ParentEvent>(.none) }
        return inner.map(embed)
      },
      eventLogic: eventLogic, presenceOnly: presenceOnly, requestsPerChild: requestsPerChild,
      extract: { outer($0).flatMap(extract) },
      childrenOffset: offset + childrenOffset, childrenPresence: (presence.map { [$0] } ?? []) + moved)
  }
}
