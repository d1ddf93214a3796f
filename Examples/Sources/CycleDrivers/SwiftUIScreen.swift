#if canImport(SwiftUI)
  /// The SwiftUI screen driver: ``ObservableScreen``, which a SwiftUI view
  /// reads like any `@Observable` model.
  ///
  /// This alias is the only Apple-only code of the Cycle drivers, and it has
  /// never been compiled: the project builds on Linux, where SwiftUI does not
  /// exist. ``ObservableScreen`` (the rendering, the observation a view's
  /// body relies on, the events) is compiled and tested on Linux.
  ///
  /// ```swift
  /// struct CounterView: View {
  ///   let screen: SwiftUIScreen<String, CycleCounter.Key>
  ///   var body: some View {
  ///     Button(screen.model) { screen.send(.increment) }
  ///   }
  /// }
  /// ```
  public typealias SwiftUIScreen<Model: Sendable & Equatable, Event: Sendable> = ObservableScreen<Model, Event>
#endif
