/// The work a feedback starts for a state: nothing, events at once, or an
/// asynchronous operation that sends events while it runs.
///
/// Effects are values. A feedback returns one; the system runs it, cancels
/// it when the feedback's trigger says so, and drops the events of a
/// cancelled effect that were not reduced yet (G4).
///
/// ```swift
/// Feedback<Search.State, Search.Event>.query(\.pageToLoad) { page in
///   .task { try await api.page(page) } catch: { .failed($0) }
/// }
/// ```
///
/// - ``none``, ``send(_:)`` and ``send(contentsOf:)`` complete at once: the
///   system enqueues their events with no task and no allocation.
/// - ``run(priority:operation:catch:)``, ``task(priority:operation:catch:)``
///   and ``sequence(_:catch:)`` run in one task each.
public struct Effect<Event: Sendable>: Sendable {
  @usableFromInline
  enum Operation: Sendable {
    case none
    case send(Event)
    case sendAll([Event])
    /// Boxed, so that the cases the loop handles per event stay small and
    /// are moved with a register or two rather than a copy of the task's
    /// closures and options.
    case run(EffectTask<Event>)

    @inlinable
    static func run(
      options: EffectTaskOptions,
      body: @escaping @Sendable (Send<Event>) async throws -> Event?,
      catch handler: (@Sendable (any Error) -> Event?)?
    ) -> Operation {
      .run(EffectTask(options: options, body: body, catch: handler))
    }
  }

  @usableFromInline let operation: Operation

  @inlinable
  init(_ operation: Operation) { self.operation = operation }

  /// Whether this is ``none``: a look at the case alone, with no copy of
  /// the payload.
  @inlinable
  var isNone: Bool {
    switch operation {
    case .none: true
    default: false
    }
  }

  /// An effect that does nothing.
  @inlinable
  public static var none: Effect { Effect(.none) }

  /// An effect that sends one event at once.
  ///
  /// ```swift
  /// Feedback<Int, Event>.predicate({ $0 < 10 }, whenFalse: .keepRunning) { _ in .send(.increment) }
  /// ```
  @inlinable
  public static func send(_ event: Event) -> Effect { Effect(.send(event)) }

  /// An effect that sends several events at once, in order.
  @inlinable
  public static func send(contentsOf events: [Event]) -> Effect {
    events.isEmpty ? .none : Effect(.sendAll(events))
  }

  /// An asynchronous effect: `operation` sends events while it runs.
  ///
  /// The operation runs in a task of its own. It is cancelled when the
  /// feedback cancels the effect; events it sends after that are dropped. An
  /// error it throws goes to `catch`, which may turn it into an event; an
  /// error left unmapped is logged and reported to the monitor (G12).
  ///
  /// ```swift
  /// .run { send in
  ///   for second in stride(from: 10, through: 1, by: -1) {
  ///     send(.tick(second))
  ///     try await send.clock.sleep(for: .seconds(1))
  ///   }
  /// }
  /// ```
  public static func run(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable (Send<Event>) async throws -> Void,
    catch: (@Sendable (any Error) -> Event?)? = nil
  ) -> Effect {
    Effect(
      .run(
        options: EffectTaskOptions(priority: priority),
        body: { send in
          try await operation(send)
          return nil
        },
        catch: `catch`))
  }

  /// An asynchronous function whose result is the effect's one event.
  ///
  /// The effect ends with its event: when the feedbacks see the state that
  /// event produced, the effect is over (it is reported finished, not
  /// cancelled, even if that state cancels the feedback's effects).
  ///
  /// ```swift
  /// .task { try await .loaded(api.search(query)) } catch: { .failed($0) }
  /// ```
  public static func task(
    priority: TaskPriority? = nil,
    operation: @escaping @Sendable () async throws -> Event,
    catch: (@Sendable (any Error) -> Event?)? = nil
  ) -> Effect {
    Effect(.run(options: EffectTaskOptions(priority: priority), body: { _ in try await operation() }, catch: `catch`))
  }

  /// An effect that sends every element of an asynchronous sequence.
  ///
  /// ```swift
  /// .sequence(notifications.map { _ in Event.refresh })
  /// ```
  public static func sequence<Events: AsyncSequence & Sendable>(
    _ events: Events,
    catch: (@Sendable (any Error) -> Event?)? = nil
  ) -> Effect where Events.Element == Event {
    .run(
      operation: { send in
        for try await event in events { send(event) }
      },
      catch: `catch`
    )
  }

  /// An effect that waits `duration` on the system's clock, then sends `event`.
  ///
  /// The wait goes through the injected clock (G11), so a test clock drives it.
  ///
  /// ```swift
  /// Feedback<HUD.State, HUD.Event>.query(\.lastInteraction) { _ in
  ///   .after(.seconds(3), send: .hide)
  /// }
  /// ```
  public static func after(_ duration: Duration, send event: Event) -> Effect {
    Effect(
      .run(
        options: EffectTaskOptions(),
        body: { send in
          try await send.clock.sleep(for: duration)
          return event
        },
        catch: nil))
  }

  /// The same effect, with thrown errors turned into events by `transform`
  /// (a `nil` result leaves the error unmapped: it is logged and reported).
  public func `catch`(_ transform: @escaping @Sendable (any Error) -> Event?) -> Effect {
    guard case .run(let task) = operation else { return self }
    let (options, body, previous) = (task.options, task.body, task.catch)
    let combined: @Sendable (any Error) -> Event? = { error in
      previous?(error) ?? transform(error)
    }
    return Effect(.run(options: options, body: body, catch: combined))
  }

  /// The same effect, its task run on `executor` rather than the
  /// environment's ``SystemEnvironment/effectExecutor`` (Feedbacks'
  /// `.execute(on:)`). An immediate effect (`.send`) runs no task and is
  /// unchanged.
  ///
  /// ```swift
  /// .task { try await .decoded(decoder.decode(data)) }
  ///   .executorPreference(decodingExecutor)
  /// ```
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  public func executorPreference(_ executor: any TaskExecutor) -> Effect {
    guard case .run(let task) = operation else { return self }
    var options = task.options
    let (body, handler) = (task.body, task.catch)
    options.executor = executor
    return Effect(.run(options: options, body: body, catch: handler))
  }

  /// The same effect, its events transformed.
  public func map<Other: Sendable>(_ transform: @escaping @Sendable (Event) -> Other) -> Effect<Other> {
    switch operation {
    case .none: return .none
    case .send(let event): return .send(transform(event))
    case .sendAll(let events): return .send(contentsOf: events.map(transform))
    case .run(let task):
      let (options, body, handler) = (task.options, task.body, task.catch)
      let mappedBody: @Sendable (Send<Other>) async throws -> Other? = { send in
        try await body(send.pullback(transform)).map(transform)
      }
      var mappedHandler: (@Sendable (any Error) -> Other?)? = nil
      if let handler {
        mappedHandler = { error in handler(error).map(transform) }
      }
      return Effect<Other>(.run(options: options, body: mappedBody, catch: mappedHandler))
    }
  }
}

/// What an asynchronous effect runs, and how its task is created.
@usableFromInline
final class EffectTask<Event: Sendable>: Sendable {
  @usableFromInline let options: EffectTaskOptions
  /// May return a final event: it is reduced as the effect's end, so the
  /// effect is over by the time its feedbacks see the new state.
  @usableFromInline let body: @Sendable (Send<Event>) async throws -> Event?
  @usableFromInline let `catch`: (@Sendable (any Error) -> Event?)?

  @inlinable
  init(
    options: EffectTaskOptions,
    body: @escaping @Sendable (Send<Event>) async throws -> Event?,
    catch handler: (@Sendable (any Error) -> Event?)?
  ) {
    self.options = options
    self.body = body
    self.catch = handler
  }
}

/// How an effect's task is created.
@usableFromInline
struct EffectTaskOptions: Sendable {
  @usableFromInline var priority: TaskPriority?
  /// A `TaskExecutor` preferred over the environment's, stored untyped
  /// because `TaskExecutor` needs macOS 15 / iOS 18.
  @usableFromInline var executor: (any Sendable)?

  init(priority: TaskPriority? = nil, executor: (any Sendable)? = nil) {
    self.priority = priority
    self.executor = executor
  }
}
