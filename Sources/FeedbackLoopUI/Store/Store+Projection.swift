extension Store {
  /// A view state: a store whose state is a pure function of this one's,
  /// and which sends the same events (Feedbacks' `viewStateFactory`).
  ///
  /// The projection is computed for each new state while someone reads the
  /// view state (and when it is read after states nobody read); the view
  /// state notifies its readers only when it changes (it is `Equatable`),
  /// so a view that reads it re-renders only for what it shows.
  ///
  /// ```swift
  /// extension Search.State {
  ///   var header: Header { Header(query: query, count: results.count, isLoading: isLoading) }
  /// }
  ///
  /// let header = store.project(\.header)
  /// Text("\(header.count) results for \(header.query)")
  /// ```
  ///
  /// - Parameter viewState: the view's model for a state.
  public func project<ViewState: Equatable>(
    _ viewState: @escaping (State) -> ViewState
  ) -> Store<ViewState, Event> {
    child(initial: viewState(current), state: viewState, keepsLastPart: false, route: route)
  }

  /// A view state through a prism that lets only some states through (the
  /// "Reactive State Machines using Feedback Loops" talk's
  /// `state.producer.filterMap { $0.resultRefresh }`): the
  /// states for which `prism` returns `nil` do not update the view, which
  /// keeps showing the last view state that passed.
  ///
  /// Before any state passes, the view state is `initial`.
  ///
  /// ```swift
  /// let refresh = store.project(filtering: \.resultRefresh, initial: .loading)
  /// switch refresh.state {
  /// case .loading: ProgressView()
  /// case .firstPage(let results): ResultsList(results)
  /// // ...
  /// }
  /// ```
  ///
  /// - Parameters:
  ///   - prism: the view state for a state, or `nil` for a state that must
  ///     not update the view.
  ///   - initial: the view state until a state passes.
  public func project<ViewState: Equatable>(
    filtering prism: @escaping (State) -> ViewState?,
    initial: ViewState
  ) -> Store<ViewState, Event> {
    child(initial: prism(current) ?? initial, state: prism, keepsLastPart: true, route: route)
  }

  /// A view state through a prism that lets only some states through, `nil`
  /// until the first state passes; once one has, the view state is never
  /// `nil` again.
  ///
  /// ```swift
  /// let refresh = store.project(filtering: \.resultRefresh)
  /// if let refresh = refresh.state { ResultsView(refresh) }
  /// ```
  public func project<ViewState: Equatable>(
    filtering prism: @escaping (State) -> ViewState?
  ) -> Store<ViewState?, Event> {
    child(initial: prism(current), state: { prism($0).map(Optional.some) }, keepsLastPart: true, route: route)
  }
}
