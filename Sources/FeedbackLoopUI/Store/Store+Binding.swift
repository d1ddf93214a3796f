#if canImport(SwiftUI)
  import SwiftUI

  extension Store {
    /// A SwiftUI `Binding` to a member of the state that sends an event when
    /// the view writes it (Feedbacks' `UISystem` binding helpers,
    /// CombineFeedback's `context.binding(for:event:)`).
    ///
    /// Reading the binding reads the member through the store, so a view
    /// re-renders only when that member changes. Writing it sends
    /// `event(newValue)`, which is reduced before the write returns: the
    /// control shows the state the reducer made of it, not the raw input.
    ///
    /// ```swift
    /// TextField("Search", text: store.binding(\.query, send: Search.Event.queryChanged))
    /// Toggle("Notifications", isOn: store.binding(\.notificationsOn, send: { .notificationsToggled($0) }))
    /// ```
    ///
    /// - Parameters:
    ///   - keyPath: the member of the state the control shows.
    ///   - event: the event to send for a value the control writes.
    public func binding<Value: Equatable & Sendable>(
      _ keyPath: KeyPath<State, Value> & Sendable,
      send event: @escaping @Sendable (Value) -> Event
    ) -> Binding<Value> {
      // SwiftUI calls a binding's closures on the main actor; depending on
      // the SDK they are typed `@Sendable` without isolation, so they assert
      // it rather than assume the compiler knows.
      Binding(
        get: { MainActor.assumeIsolated { self[dynamicMember: keyPath] } },
        set: { value in MainActor.assumeIsolated { self.send(event(value)) } }
      )
    }

    /// A SwiftUI `Binding` to a value computed from the state that sends an
    /// event when the view writes it. Reading it reads the whole ``state``.
    ///
    /// ```swift
    /// Picker("Sort", selection: store.binding(get: { $0.sort }, send: { .sortChanged($0) })) { ... }
    /// ```
    ///
    /// - Parameters:
    ///   - get: the value the control shows, for a state.
    ///   - event: the event to send for a value the control writes.
    public func binding<Value: Sendable>(
      get: @escaping @Sendable (State) -> Value,
      send event: @escaping @Sendable (Value) -> Event
    ) -> Binding<Value> {
      Binding(
        get: { MainActor.assumeIsolated { get(self.state) } },
        set: { value in MainActor.assumeIsolated { self.send(event(value)) } }
      )
    }
  }
#endif
