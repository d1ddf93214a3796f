import CFeedbackLoopShims
import DequeModule
import Logging

/// The tasks of effects and inputs, and the cancellation watermarks that
/// drop a cancelled effect's events (G4, G9).
///
/// `spawn` runs on the owner's thread (a runtime starting an effect), the
/// task bodies on the environment's executor; `runningTasks` is guarded by
/// `lock`. `watermarks` are written by the runtimes on the owner's thread
/// and read there, before each event of an effect is reduced.
extension SystemCore {
  /// Whether the effect of `token`, at or under its feedback's watermark,
  /// is cancelled: its runtime's ``EffectBook`` answers. The watermark in
  /// `watermarks` only filters: an event above it is live without asking.
  @usableFromInline
  func isCancelled(_ token: EffectToken) -> Bool {
    runtimes[Int(token.feedback)].isCancelled(token.number)
  }

  @usableFromInline
  func discard(_ event: Event, _ token: EffectToken, endsEffect: Bool) {
    monitor?.report(.eventDiscarded(event, reason: .effectCancelled(effectID(of: token))))
    if endsEffect { runtimes[Int(token.feedback)].effectEnded(token.number, outcome: .finished) }
  }

  @usableFromInline
  func effectID(of token: EffectToken) -> EffectID {
    runtimes[Int(token.feedback)].effectID(token.number)
  }

  @usableFromInline
  func source(of token: EffectToken) -> EventSource {
    if token.isExternal { return .external }
    let runtime = runtimes[Int(token.feedback)]
    return token.isEffect ? .effect(runtime.effectID(token.number)) : .feedback(runtime.id)
  }

  /// Starts a task for an effect or an input, on the environment's executor.
  @inlinable
  func spawn(
    priority: TaskPriority? = nil,
    executor preferred: (any Sendable)? = nil,
    _ operation: @escaping @Sendable () async -> Void
  ) -> Task<Void, Never> {
    fl_live_tasks_increment()
    withLock { runningTasks += 1 }
    let body: @Sendable () async -> Void = { [self] in
      // A task that first runs after `stop()` (started by the pass before,
      // cancelled by the teardown before its executor ran it) ends without
      // running its body: nothing of a stopped system runs (G9). A task
      // that began earlier ends when its body sees its cancellation.
      if !isStopped { await operation() }
      withLock { runningTasks -= 1 }
      fl_live_tasks_decrement()
    }
    if #available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *),
      let executor = (preferred ?? environment.effectExecutorStorage) as? any TaskExecutor
    {
      return Task(executorPreference: executor, priority: priority, operation: body)
    }
    return Task(priority: priority, operation: body)
  }

  /// Runs an effect's operation in a task; its events carry `token`.
  @inlinable
  func spawnEffect(
    _ token: EffectToken,
    options: EffectTaskOptions,
    body: @escaping @Sendable (Send<Event>) async throws -> Event?,
    catch handler: (@Sendable (any Error) -> Event?)?
  ) -> Task<Void, Never> {
    if let scope = monitor?.effectTaskScope {
      return scope(effectID(of: token), hooks?.currentContext) {
        spawnEffectTask(token, options: options, body: body, catch: handler)
      }
    }
    return spawnEffectTask(token, options: options, body: body, catch: handler)
  }

  @inlinable
  func spawnEffectTask(
    _ token: EffectToken,
    options: EffectTaskOptions,
    body: @escaping @Sendable (Send<Event>) async throws -> Event?,
    catch handler: (@Sendable (any Error) -> Event?)?
  ) -> Task<Void, Never> {
    spawn(priority: options.priority, executor: options.executor) { [self] in
      let send = Send<Event>(clock: environment.clock) { [self] event in
        submit(event, from: token)
      }
      do {
        if let final = try await body(send) {
          submitFinal(final, from: token)
        } else {
          effectEnded(token, outcome: .finished)
        }
      } catch {
        if Task.isCancelled {
          effectEnded(token, outcome: .cancelled)
        } else if let event = handler?(error) {
          submitFinal(event, from: token)
        } else {
          effectEnded(token, outcome: .failed(error))
        }
      }
    }
  }

  /// Runs a feedback's own long-lived task (an input, a stream of states).
  /// Its events are never cancelled; their source is the feedback. An error
  /// it throws is reported as the feedback's effect 0.
  @usableFromInline
  func spawnFeedbackTask(
    _ feedback: FeedbackID,
    _ body: @escaping @Sendable (Send<Event>) async throws -> Void
  ) -> Task<Void, Never> {
    let token = EffectToken.feedbackTask(feedback)
    return spawn { [self] in
      let send = Send<Event>(clock: environment.clock) { [self] event in
        submit(event, from: token)
      }
      do {
        try await body(send)
      } catch {
        if !Task.isCancelled { effectEnded(token, outcome: .failed(error)) }
      }
    }
  }

  /// Reports an error that no `catch` turned into an event (G12).
  @usableFromInline
  func reportUnmappedError(_ error: any Error, of effect: EffectID) {
    environment.logger.error(
      "effect failed and its error is not mapped to an event",
      metadata: ["effect": "\(effect)", "error": "\(error)"])
    monitor?.report(.effectFailed(effect, error))
  }

  /// The number of this system's effect and input tasks that have not ended.
  @usableFromInline
  var runningTaskCount: Int { withLock { runningTasks } }
}
