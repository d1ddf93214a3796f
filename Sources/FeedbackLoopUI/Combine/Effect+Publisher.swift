import FeedbackLoop

#if canImport(Combine)
  import Combine
#elseif canImport(OpenCombine)
  import OpenCombine
#endif

#if canImport(Combine) || canImport(OpenCombine)
  extension Effect {
    /// An effect that is a Combine publisher of events: CombineFeedback's and
    /// Feedbacks' effects, which return an `AnyPublisher<Event, Never>`,
    /// move over unchanged.
    ///
    /// The effect subscribes when it starts (in its task), sends every event
    /// the publisher emits, and ends when the publisher completes. When the
    /// feedback cancels the effect (its query changed, G4), the subscription
    /// is cancelled, and the events it emitted that were not reduced yet are
    /// dropped. (With OpenCombine where Combine does not exist.)
    ///
    /// ```swift
    /// Feedback<Search.State, Search.Event>.query(\.nextPageURL) { url in
    ///   .publisher(
    ///     api.search(url)  // AnyPublisher<Response, Error>
    ///       .map(Search.Event.success)
    ///       .catch { Just(.failure($0)) }
    ///   )
    /// }
    /// ```
    public static func publisher<Events: Publisher>(
      _ publisher: Events
    ) -> Effect where Events.Output == Event, Events.Failure == Never {
      .sequence(PublisherEvents(upstream: publisher))
    }

    /// An effect that is a Combine publisher that may fail: its failure goes
    /// to `catch`, which turns it into the effect's last event (or `nil`,
    /// leaving the error reported to the monitor and logged, G12).
    ///
    /// ```swift
    /// .publisher(api.search(url).map(Search.Event.success)) { .failure($0) }
    /// ```
    public static func publisher<Events: Publisher>(
      _ publisher: Events,
      catch transform: @escaping @Sendable (Events.Failure) -> Event?
    ) -> Effect where Events.Output == Event {
      let steps =
        publisher
        .map { PublisherStep<Event>.event($0) }
        .catch { error in Just(transform(error).map(PublisherStep.event) ?? .failed(error)) }
      return .steps(PublisherEvents(upstream: steps))
    }

    /// Runs the steps of a publisher that may fail: sends its events, and
    /// throws an unmapped failure, which the core reports (G12).
    private static func steps<Steps: AsyncSequence & Sendable>(
      _ steps: Steps
    ) -> Effect where Steps.Element == PublisherStep<Event> {
      .run { send in
        for try await step in steps {
          switch step {
          case .event(let event): send(event)
          case .failed(let error): throw error
          }
        }
      }
    }
  }

  /// What a publisher that may fail sends, once its failure is handled: an
  /// event, or the failure that `catch` did not turn into one.
  enum PublisherStep<Event: Sendable>: Sendable {
    case event(Event)
    case failed(any Error)
  }
#endif
