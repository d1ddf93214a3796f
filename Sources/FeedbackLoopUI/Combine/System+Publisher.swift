import FeedbackLoop

#if canImport(Combine)
  import Combine
#elseif canImport(OpenCombine)
  import OpenCombine
#endif

#if canImport(Combine) || canImport(OpenCombine)
  extension System {
    /// The system's states as a Combine publisher: each subscription receives
    /// the current state, then every later state, in order, on the loop's
    /// thread (the main actor for a main-actor system), after the feedbacks
    /// have seen it (G3). Every reduced event yields a state: add
    /// `removeDuplicates()` for distinct ones. (With OpenCombine where
    /// Combine does not exist.)
    ///
    /// Each subscription is an observation of the system (`observe(isolation:_:onStop:)`),
    /// ended when the subscription is cancelled. A subscriber that has not
    /// requested more states misses them, as with a `PassthroughSubject`.
    /// The publisher does not complete when the system stops: the core's
    /// observation API does not report the stop.
    ///
    /// ```swift
    /// system.statePublisher
    ///   .map(\.isLoading)
    ///   .removeDuplicates()
    ///   .sink { isLoading in spinner.isHidden = !isLoading }
    ///   .store(in: &cancellables)
    /// ```
    public var statePublisher: AnyPublisher<State, Never> {
      SystemStatePublisher(system: self).eraseToAnyPublisher()
    }
  }

  /// Subscribes by observing the system: a subject per subscription, fed by
  /// a core observer, whose observation ends with the subscription.
  struct SystemStatePublisher<State: Sendable, Event: Sendable>: Publisher {
    typealias Output = State
    typealias Failure = Never

    let system: System<State, Event>

    func receive<Downstream: Subscriber>(subscriber: Downstream)
    where Downstream.Input == State, Downstream.Failure == Never {
      let subject = PassthroughSubject<State, Never>()
      let observation = CancellationBox()
      // The subscriber is attached before the observation starts, so it
      // receives the current state, which the observer may deliver at once.
      subject
        .handleEvents(receiveCancel: { observation.cancel() })
        .receive(subscriber: subscriber)
      let box = SubjectBox(subject)
      let handle = system.observe { state in _ = box.send(state) }
      // The subscription holds the subject; the observer holds it weakly,
      // so that it goes away with the subscription.
      observation.hold(handle.cancel)
    }
  }
#endif
