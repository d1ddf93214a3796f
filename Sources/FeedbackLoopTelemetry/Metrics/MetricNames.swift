/// The labels and dimensions of the metrics that
/// `SystemMonitor.metrics(label:factory:clock:)` and
/// `Journal.withMetrics(label:factory:clock:)` record, for dashboards and
/// tests.
///
/// ```swift
/// let reduced = try testMetrics.expectCounter(
///   MetricNames.eventsReduced, [(MetricNames.system, "search")])
/// ```
public enum MetricNames {
  /// Counter: events reduced. Dimension ``system``.
  public static let eventsReduced = "feedbackloop_events_reduced"
  /// Counter: events accepted or sent but never reduced. Dimensions
  /// ``system`` and ``reason`` (``DiscardedReason``).
  public static let eventsDiscarded = "feedbackloop_events_discarded"
  /// Meter: events other threads sent that wait for the loop, set each
  /// time the loop takes them from its shared queue, and 0 when it goes
  /// idle after that (the loop's own sends to itself are not counted).
  /// Dimension ``system``.
  public static let eventsWaiting = "feedbackloop_events_waiting"
  /// Counter: effects queued behind a running one (the `queue` strategy).
  /// Dimensions ``system`` and ``feedback``.
  public static let effectsQueued = "feedbackloop_effects_queued"
  /// Counter: effects started. Dimensions ``system`` and ``feedback``.
  public static let effectsStarted = "feedbackloop_effects_started"
  /// Counter: effects cancelled (replaced, no longer wanted, or stopped
  /// with their system), queued ones included. Dimensions ``system`` and
  /// ``feedback``.
  public static let effectsCancelled = "feedbackloop_effects_cancelled"
  /// Counter: effects that ended on their own. Dimensions ``system`` and ``feedback``.
  public static let effectsFinished = "feedbackloop_effects_finished"
  /// Counter: effects that threw an error no `catch` turned into an event.
  /// Dimensions ``system`` and ``feedback``.
  public static let effectsFailed = "feedbackloop_effects_failed"
  /// Meter: effects started and not yet finished, failed or cancelled.
  /// Dimensions ``system`` and ``feedback``.
  public static let effectsInFlight = "feedbackloop_effects_in_flight"
  /// Timer: how long an effect ran, from its start to its end, whichever
  /// way it ended. Dimensions ``system`` and ``feedback``.
  public static let effectDuration = "feedbackloop_effect_duration"

  /// Timer: how long one `Journal.append(_:)` took (one transaction, the
  /// batches of every system in it), whether it returned or threw.
  /// Dimension ``system``: the label given to `Journal.withMetrics(label:factory:clock:)`.
  public static let journalAppendDuration = "feedbackloop_journal_append_duration"
  /// Recorder: the batch size, the number of events one `Journal.append(_:)`
  /// was handed, all of its batches together (what group commit gathered).
  /// Dimension ``system``.
  public static let journalAppendEvents = "feedbackloop_journal_append_events"
  /// Counter: batches that the journal did not store, one per system's
  /// batch. Dimensions ``system`` and ``reason`` (``RefusedAppendReason``).
  public static let journalAppendsRefused = "feedbackloop_journal_appends_refused"

  /// The dimension that names the system: the label given to the monitor
  /// (or to the journal).
  public static let system = "system"
  /// The dimension that names the feedback: its name.
  public static let feedback = "feedback"
  /// The dimension that says why an event was discarded, or why a
  /// journal did not store a batch.
  public static let reason = "reason"

  /// The values of the ``reason`` dimension.
  public enum DiscardedReason {
    /// The effect that sent the event had been cancelled.
    public static let effectCancelled = "effect_cancelled"
    /// Dropped: the bounded event buffer was full.
    public static let bufferFull = "buffer_full"
    /// Refused: the system had stopped.
    public static let systemStopped = "system_stopped"
    /// The event named a child that does not exist.
    public static let noSuchChild = "no_such_child"
    /// A reason this version does not know of.
    public static let other = "other"
  }

  /// The values of the ``reason`` dimension of ``journalAppendsRefused``.
  public enum RefusedAppendReason {
    /// The system was claimed again since its writer claimed it: the
    /// writer's epoch is stale (`SequenceConflict.isFenced`). Another
    /// process took the system over.
    public static let fenced = "fenced"
    /// The writer's epoch is current, but the system's last stored event is
    /// not the one the writer expected: something else wrote to it.
    public static let staleSequence = "stale_sequence"
    /// The append threw (the disk, the connection): none of its batches
    /// was stored.
    public static let failed = "failed"
  }
}
