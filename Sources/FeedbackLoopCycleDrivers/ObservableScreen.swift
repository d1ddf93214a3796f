import FeedbackLoopCycle
import Observation

/// A screen driver for a UI that observes its model with Observation (a
/// SwiftUI view on Apple platforms): the model it renders is an observable
/// property a view reads, and the view reports its events with ``send(_:)``.
///
/// Everything a SwiftUI screen does lives here and is compiled and tested on
/// Linux (Observation is part of the toolchain there): rendering, the
/// observation a view's body relies on, the events. `SwiftUIScreen`, behind
/// `#if canImport(SwiftUI)`, is only this type under its SwiftUI name.
///
/// Its events wait in ``DriverEvents`` until a router takes them, so one
/// screen serves a second run after a router stops (a view that outlives
/// its application's system).
///
/// It renders on the main actor: give it to a router started with
/// `isolation: .mainActor` (a render on another thread stops with a message).
///
/// ```swift
/// struct CounterView: View {
///   let screen: ObservableScreen<String, Counter.Key>
///   var body: some View {
///     VStack {
///       Text(screen.model)
///       Button("+") { screen.send(.increment) }
///     }
///   }
/// }
/// ```
@MainActor
@Observable
public final class ObservableScreen<Model: Sendable & Equatable, Event: Sendable>: Driver {
  /// What the view shows: the model rendered last.
  public private(set) var model: Model
  /// What the view reported, waiting for a router to take them.
  public nonisolated let events = DriverEvents<Event>()

  /// A screen showing `initial` until the router renders.
  public init(initial: Model) {
    model = initial
  }

  /// Renders `model`: called by a main-actor router, on the main actor.
  public nonisolated func render(_ model: Model) {
    MainActor.assumeIsolated { self.model = model }
  }

  /// The view reports an event.
  public func send(_ event: Event) {
    events.send(event)
  }

  /// The view is gone: the screen's events end.
  public func close() {
    events.finish()
  }
}
