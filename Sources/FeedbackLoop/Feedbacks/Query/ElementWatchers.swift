/// The feedbacks of one system that watch elements of the same
/// ``TrackedArray`` (``Feedback/query(_:at:strategy:name:fileID:line:effects:)``),
/// reached through one state handler instead of one each.
///
/// The handler reads from the array's log the positions changed since the
/// last state and hands each watcher of those positions its element; the
/// other watchers are not called, so a state costs the changed elements'
/// feedbacks, not every feedback (the hundred-feedbacks benchmark). A watcher not called has nothing to
/// do: its element is the one it last compared, and a query feedback whose
/// query did not change does nothing. When the log cannot tell (the first
/// state, a copied or replaced array), every watcher compares its element,
/// as query feedbacks always do.
///
/// Made by the first such feedback of a system, from its `@inlinable`
/// initializer (so it runs specialized in the user's module), and found by
/// the next ones through the key path, in the ``SharedHandlers`` of the
/// system being made.
@usableFromInline
final class ElementWatchers<State: Sendable, Event: Sendable, Element: Equatable & Sendable> {
  @usableFromInline let elements: KeyPath<State, TrackedArray<Element>>
  /// The watchers of each position, in the order they were made.
  @exclusivity(unchecked) @usableFromInline var watchers: [[QueryRuntime<State, Event, Element>]] = []
  @exclusivity(unchecked) @usableFromInline var cursor = ChangeCursor()

  @inlinable
  init(elements: KeyPath<State, TrackedArray<Element>>) {
    self.elements = elements
  }

  /// The watchers of `elements` in the system `core` is making, made and
  /// linked to the state handlers by the first feedback that asks.
  @inlinable
  static func shared(
    for elements: KeyPath<State, TrackedArray<Element>>, in core: SystemCore<State, Event>
  ) -> ElementWatchers {
    let shared = SharedHandlers.current()
    if let existing = shared.byKey[elements] { return existing as! ElementWatchers }
    let made = ElementWatchers(elements: elements)
    shared.byKey[elements] = made
    StateLink.append(StateLink { state, _ in made.onState(state) }, to: &core.firstStateLink)
    return made
  }

  @inlinable
  func add(_ watcher: QueryRuntime<State, Event, Element>, at index: Int) {
    if watchers.count <= index { watchers.append(contentsOf: repeatElement([], count: index + 1 - watchers.count)) }
    watchers[index].append(watcher)
  }

  @inlinable
  func onState(_ state: State) {
    let array = state[keyPath: elements]
    switch array.changes(since: cursor) {
    case .unchanged:
      return
    case .changed(let positions):
      // A position changed twice is compared twice: the second finds
      // nothing new.
      for index in positions where index < watchers.count {
        let element = array.element(at: index)
        for watcher in watchers[index] { watcher.onQuery(element) }
      }
    case .unknown:
      for index in watchers.indices {
        let element = array.element(at: index)
        for watcher in watchers[index] { watcher.onQuery(element) }
      }
    }
    cursor = array.changeCursor
  }
}
