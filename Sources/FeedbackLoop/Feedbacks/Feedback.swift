/// Reads the states of a system and emits events: side effects, inputs,
/// timers, UI.
///
/// A feedback is a value that describes what to do; each system that runs it
/// gives it a runtime of its own. Build one with the vocabulary of RxFeedback and ReactiveFeedback:
///
/// | need | feedback |
/// | --- | --- |
/// | an effect per query, restarted only when the query changes | ``init(lensing:strategy:name:fileID:line:effects:)``, ``init(skippingRepeated:strategy:name:fileID:line:effects:)``, ``react(request:strategy:name:fileID:line:effects:)``; many feedbacks each on one element of a ``TrackedArray``, asked only when their element changed: ``init(lensing:at:strategy:name:fileID:line:effects:)`` |
/// | an effect for each state that satisfies a predicate | ``init(predicate:strategy:name:fileID:line:effects:)`` |
/// | an effect when a predicate becomes true, or a query non-`nil` | ``init(onBecomingTrue:strategy:name:fileID:line:effects:)``, ``init(onBecomingNonNil:strategy:name:fileID:line:effects:)`` |
/// | concurrent effects, one per request in the state | ``react(requests:name:fileID:line:effects:)-((State)->Set<Request>,_,_,_,_)``, by id ``react(requests:name:fileID:line:effects:)-((State)->[ID:Value],_,_,_,_)``; for many requests changed a few at a time, over a ``TrackedSet`` or a ``TrackedDictionary`` (O(1) per change) ``react(requests:name:fileID:line:effects:)-((State)->TrackedSet<Request>,_,_,_,_)``, ``react(requests:name:fileID:line:effects:)-((State)->TrackedDictionary<ID,Value>,_,_,_,_)``, a `TreeSet` ``react(requests:name:fileID:line:effects:)-((State)->TreeSet<Request>,_,_,_,_)`` or a `TreeDictionary` ``react(requests:name:fileID:line:effects:)-((State)->TreeDictionary<ID,Value>,_,_,_,_)`` |
/// | an effect after an event | ``onEvent(strategy:name:fileID:line:effects:)`` |
/// | events from outside | ``input(_:name:fileID:line:)-(Input<Event>,_,_,_)`` |
/// | the whole stream of states | ``init(name:fileID:line:events:)``, ``init(deriving:strategy:name:fileID:line:effects:)`` |
/// | a synchronous observer of each state with a memory of its own per system (a renderer) | ``init(name:fileID:line:observingEachState:)`` |
///
/// ```swift
/// let feedbacks: [Feedback<Search.State, Search.Event>] = [
///   .input(queries),
///   Feedback(lensing: \.pageToLoad) { page in
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
  /// (`lensing@Search.swift:42`).
  public var name: String { label.text }

  /// The general form (RxFeedback's `(Observable<State>) -> Observable<Event>`):
  /// the stream of states in, a stream of events out.
  ///
  /// `events` is called once, when the system starts, with a sequence of
  /// every state from the initial one on, in order (buffered without bound,
  /// so none is missed; G3). Its events are sent to the system until it stops.
  /// Prefer the query forms for effects that follow the state: they react
  /// before the next event is reduced.
  ///
  /// ```swift
  /// Feedback<Player.State, Player.Event>(events: { states in
  ///   states.map(\.isPlaying).removingDuplicates().map(Player.Event.playingChanged)
  /// })
  /// ```
  public init<Events: AsyncSequence & Sendable>(
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line,
    events transform: @escaping @Sendable (AsyncStream<State>) -> Events
  ) where Events.Element == Event {
    self.init(name: name, kind: "events", fileID: fileID, line: line) { id, core in
      StreamRuntime(id: id, core: core) { states, send in
        for try await event in transform(states) { send(event) }
      }
    }
  }

  /// Binds an external source of events for the system's lifetime (G8).
  ///
  /// ```swift
  /// let taps = AsyncStream<Void>.makeStream()
  /// Feedback<HUD.State, HUD.Event>.input(taps.stream.map { .tap })
  /// ```
  public static func input<Events: AsyncSequence & Sendable>(
    _ events: Events,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Feedback where Events.Element == Event {
    Feedback(name: name, kind: "input", fileID: fileID, line: line) { id, core in
      InputSequenceRuntime(id: id, core: core) { send in
        for try await event in events { send(event) }
      }
    }
  }

  /// Binds an ``Input``, a handle that imperative code (a button, a
  /// notification, a delegate) sends events through (G8).
  ///
  /// ```swift
  /// let buttons = Input<Counter.Event>()
  /// let system = System(initial: 0, reduceReturning: Counter.reduce, feedbacks: [.input(buttons)])
  /// buttons.send(.increment)
  /// ```
  @inlinable
  public static func input(
    _ input: Input<Event>,
    name: String? = nil,
    fileID: StaticString = #fileID,
    line: UInt = #line
  ) -> Feedback {
    Feedback(name: name, kind: "input", fileID: fileID, line: line) { id, core in
      // Built here, in the user's module, so that an input's events take the
      // specialized path into the loop.
      let target = InputTarget<Event> { event, callerIsMainActor in
        core.submit(event, from: .external, callerIsMainActor: callerIsMainActor)
      }
      return InputHandleRuntime(id: id, core: core, input: input, target: target)
    }
  }
}
