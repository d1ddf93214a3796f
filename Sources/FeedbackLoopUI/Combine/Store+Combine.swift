#if canImport(Combine)
  import Combine
#elseif canImport(OpenCombine)
  import OpenCombine
#endif

#if canImport(Combine) || canImport(OpenCombine)
  extension Store {
    /// The store's states as a Combine publisher: the current state on
    /// subscription, then each new one, sent on the main actor, in order
    /// (with OpenCombine where Combine does not exist).
    ///
    /// As with ``states``, these are the states the store takes (an
    /// `Equatable` state that an event leaves equal is not sent again). The
    /// publisher completes when the system stops or the store goes away.
    /// A UIKit view controller, or code written for CombineFeedback's
    /// `system` or Feedbacks' `stream`, subscribes to it unchanged.
    ///
    /// ```swift
    /// store.statePublisher
    ///   .map(\.title)
    ///   .removeDuplicates()
    ///   .sink { [weak self] title in self?.title = title }
    ///   .store(in: &cancellables)
    /// ```
    public var statePublisher: AnyPublisher<State, Never> {
      let subject = CurrentValueSubject<State, Never>(current)
      let box = SubjectBox(subject)
      if hasStopped { box.finish() }
      addListener(
        onState: { state in box.send(state) },
        finish: { box.finish() },
        finishOnRelease: { box.finish() })
      return subject.eraseToAnyPublisher()
    }
  }
#endif
