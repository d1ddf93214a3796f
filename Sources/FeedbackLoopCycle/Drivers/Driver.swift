/// Cycle's driver: an isolated object that renders a model of its own and
/// reports events of its own.
///
/// A driver owns its ``Model`` and ``Event`` types and knows nothing of the
/// application that uses it (Cycle.swift's dependency inversion): a ``Router``
/// turns the application's frame into the driver's model with a frame filter,
/// and the driver's events into the next frame with an event filter.
///
/// Cycle.swift gives a driver one function, `eventsCapturedAfterRendering`:
/// models in, events out. Here it is split along the two directions so that
/// both stay deterministic under test:
///
/// - ``render(_:)`` receives each model to render. The router calls it
///   synchronously, on the thread that runs the loop, right after the frame
///   whose model changed was reduced (a model equal to the one rendered last
///   is skipped: one comparison; a driver wired with `modelOfEveryFrame:`
///   renders every frame shown, and its model need not be `Equatable`). A router of `SystemIsolation.mainActor`
///   isolation therefore renders on the main actor, which is what a screen
///   driver needs; a network driver renders anywhere and only hands the
///   request to its ``events`` sequence. Keep it short: the loop waits for it.
/// - ``events`` is iterated once per run, in a task of the system's, for the
///   router's lifetime; a driver's asynchronous work (a request, a timer on
///   an injected clock) belongs there, so that a test's executor runs it.
///   A driver that should serve a second run after a router stops makes
///   events that can be iterated again (`DriverEvents` in
///   `FeedbackLoopCycleDrivers` does; an `AsyncStream` is used up).
///
/// Why not a stream of models, as Cycle.swift's function takes: a render
/// fed by a stream would run in a task of its own, after the reduction, at
/// a time a test does not control, and off the main actor a screen needs.
/// A synchronous ``render(_:)`` renders the seed's model before any event
/// (G1), renders each changed model in the reduction's order (G2) and on
/// the loop's thread, and is tested with no waiting.
/// ``eventsCapturedAfterRendering(_:)`` gives the seed's shape over it.
///
/// The drivers every app needs (a clock, a driver over any `AsyncSequence`,
/// the Observation and SwiftUI screen) are in `FeedbackLoopCycleDrivers`.
///
/// ```swift
/// final class Screen: Driver {
///   struct Model: Equatable, Sendable { var text: String }
///   enum Event: Sendable { case key(Character) }
///
///   let events: AsyncStream<Event>
///   private let keys: AsyncStream<Event>.Continuation
///   init() { (events, keys) = AsyncStream.makeStream() }
///
///   func render(_ model: Model) { print(model.text) }
///   func press(_ key: Character) { keys.yield(.key(key)) }
/// }
/// ```
public protocol Driver<Model, Event>: Sendable {
  /// What the driver renders: its own type, not the application's.
  associatedtype Model: Sendable
  /// What the driver reports: its own type, not the application's.
  associatedtype Event: Sendable
  /// The sequence of the events it experiences.
  associatedtype Events: AsyncSequence & Sendable where Events.Element == Event

  /// Renders `model`, on the loop's thread (see the type's documentation).
  func render(_ model: Model)

  /// The events the driver experiences, iterated once, for the router's
  /// lifetime. When it ends or throws, the router reports it (``CycleEvent/driverEnded(_:)``,
  /// ``CycleEvent/driverFailed(_:message:)``) and keeps the other drivers running.
  var events: Events { get }
}

extension Driver {
  /// Cycle.swift's one function: renders each of `models`, in order, then
  /// hands back the events the driver experiences.
  ///
  /// ```swift
  /// for await event in screen.eventsCapturedAfterRendering([Screen.Model(text: "0")]) { print(event) }
  /// ```
  public func eventsCapturedAfterRendering(_ models: some Sequence<Model>) -> Events {
    for model in models { render(model) }
    return events
  }
}
