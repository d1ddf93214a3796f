#if canImport(SwiftUI)
  import FeedbackLoopCycle
  import Observation
  import SwiftUI

  /// A screen driver for SwiftUI: the model it renders is an observable
  /// property a view reads, and the view reports its events with ``send(_:)``.
  ///
  /// It renders on the main actor: give it to a router started with
  /// `isolation: .mainActor`. The logic it drives (the router, its filters)
  /// is the same the terminal screen drives, and is tested on Linux.
  ///
  /// ```swift
  /// struct CounterView: View {
  ///   let screen: SwiftUIScreen<String, CycleCounter.Key>
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
  public final class SwiftUIScreen<Model: Sendable & Equatable, Event: Sendable>: Driver {
    /// What the view shows.
    public private(set) var model: Model
    private let keys: AsyncStream<Event>.Continuation
    /// What the view reported.
    public nonisolated let events: AsyncStream<Event>

    /// A screen showing `initial` until the router renders.
    public init(initial: Model) {
      model = initial
      (events, keys) = AsyncStream.makeStream()
    }

    /// Renders `model`: called by a main-actor router, on the main actor.
    public nonisolated func render(_ model: Model) {
      MainActor.assumeIsolated { self.model = model }
    }

    /// The view reports an event.
    public func send(_ event: Event) {
      keys.yield(event)
    }
  }
#endif
