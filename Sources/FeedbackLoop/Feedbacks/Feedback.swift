/// Reads the states of a system and emits events: side effects, inputs,
/// timers, UI.
///
/// A feedback is a value that describes what to do; each system that runs it
/// gives it a runtime of its own. Every way to make one is a static function
/// named for its kind, one per kind, so a feedback reads `.kind(...)`
/// wherever a feedback is expected: in a system's list, in a feature's (a
/// ``LiftableFeedback`` has the same functions, with the same labels), in a
/// test. No initializer makes a feedback from your closures.
///
/// | kind | when its effect starts | spelling |
/// | --- | --- | --- |
/// | query | when the query changes to a non-`nil` value | ``query(_:strategy:name:fileID:line:effects:)``; on one element of a ``TrackedArray``: ``query(_:at:strategy:name:fileID:line:effects:)`` |
/// | predicate | for each state that satisfies the predicate | ``predicate(_:whenFalse:strategy:name:fileID:line:effects:)`` |
/// | edge | when a predicate becomes true, or a query non-`nil` | ``onBecomingTrue(_:strategy:name:fileID:line:effects:)``, ``onBecomingNonNil(_:strategy:name:fileID:line:effects:)`` |
/// | requests | for each request that appears, one effect per request | ``requests(_:name:fileID:line:effects:)-((State)->Set<Request>,_,_,_,_)``; by id ``requests(_:name:fileID:line:effects:)-((State)->[ID:Value],_,_,_,_)``; the same over a ``TrackedSet``, a ``TrackedDictionary``, a `TreeSet` or a `TreeDictionary` |
/// | event | after an event | ``onEvent(strategy:name:fileID:line:effects:)`` |
/// | input | events from outside | ``input(_:name:fileID:line:)-(Input<Event>,_,_,_)`` |
/// | events | the whole stream of states in, events out | ``events(name:fileID:line:_:)`` |
/// | deriving | for each value derived from the stream of states | ``deriving(_:strategy:name:fileID:line:effects:)`` |
/// | observer | — (a synchronous observer of each state, with a memory of its own per system: a renderer) | ``observer(name:fileID:line:_:)`` |
/// | child systems | a child system per request | `childSystems(_:for:make:route:updated:outcome:)`, over a ``TrackedDictionary`` or a `Dictionary` |
///
/// ```swift
/// let feedbacks: [Feedback<Search.State, Search.Event>] = [
///   .input(queries),
///   .query(\.pageToLoad) { page in
///     .task { try await .loaded(api.page(page)) } catch: { .failed($0) }
///   },
/// ]
/// ```
public struct Feedback<State: Sendable, Event: Sendable>: Sendable {
  let label: FeedbackLabel
  @usableFromInline let makeRuntime: @Sendable (FeedbackID, SystemCore<State, Event>) -> FeedbackRuntime<State, Event>

  @usableFromInline
  init(
    name: String?,
    kind: StaticString,
    fileID: StaticString,
    line: UInt,
    makeRuntime: @escaping @Sendable (FeedbackID, SystemCore<State, Event>) -> FeedbackRuntime<State, Event>
  ) {
    self.label = FeedbackLabel(explicit: name, kind: kind, fileID: fileID, line: line)
    self.makeRuntime = makeRuntime
  }

  /// The feedback's readable name, as monitors and the testing kit show it:
  /// the one given to its initializer, or its kind and where it was written
  /// (`query@Search.swift:42`).
  public var name: String { label.text }
}
