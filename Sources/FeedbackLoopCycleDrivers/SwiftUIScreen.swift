#if canImport(SwiftUI)
  /// The SwiftUI screen driver: ``ObservableScreen``, which a SwiftUI view
  /// reads like any `@Observable` model.
  ///
  /// This alias is the only Apple-only code of the Cycle drivers, and it is
  /// not compiled by the project's Linux builds, where SwiftUI does not
  /// exist. ``ObservableScreen`` (the rendering, the observation a view's
  /// body relies on, the events) is compiled and tested on Linux.
  ///
  /// ```swift
  /// struct CounterView: View {
  ///   let screen: SwiftUIScreen<String, Counter.Key>
  ///   var body: some View {
  ///     Button(screen.model) { screen.send(.increment) }
  ///   }
  /// }
  /// ```
  public typealias SwiftUIScreen<Model: Sendable & Equatable, Event: Sendable> = ObservableScreen<Model, Event>
#endif
