import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Testing

#if canImport(Combine)
  import Combine
#elseif canImport(OpenCombine)
  import OpenCombine
#endif

#if canImport(Combine) || canImport(OpenCombine)
  /// The Combine bridges, run with OpenCombine where Combine does not exist.
  @Suite("Combine bridges: publisher inputs, publisher effects, states as publishers", .runsLeftoverJobs)
  struct CombineBridgeTests {
    enum Event: Equatable, Sendable {
      case add(Int)
      case query(String?)
      case loaded(String)
      case failed(String)
    }

    struct State: Equatable, Sendable {
      var total = 0
      var query: String?
      var log: [String] = []
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .add(let value): state.total += value
      case .query(let query): state.query = query
      case .loaded(let text): state.log.append(text)
      case .failed(let message): state.log.append("failed: \(message)")
      }
    }

    @Test("G8 a publisher is an input for the system's lifetime; its events reach the reducer in order")
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    func test_G8_publisherInput() {
      let executor = ManualTaskExecutor()
      let subject = PassthroughSubject<Event, Never>()
      let system = System(
        initial: State(), reduce: Self.reduce, feedbacks: [.input(subject)],
        environment: SystemEnvironment(effectExecutor: executor))
      executor.runUntilIdle()  // the input subscribes
      subject.send(.add(1))
      subject.send(.add(2))
      executor.runUntilIdle()
      #expect(system.state.total == 3)
      subject.send(.add(3))
      executor.runUntilIdle()
      #expect(system.state.total == 6)
    }

    @Test("G9 stopping the system cancels the publisher's subscription")
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    func test_G9_publisherInputCancelledOnStop() {
      let executor = ManualTaskExecutor()
      let subject = PassthroughSubject<Event, Never>()
      let cancelled = Recorder<Bool>()
      let system = System(
        initial: State(), reduce: Self.reduce,
        feedbacks: [.input(subject.handleEvents(receiveCancel: { cancelled.append(true) }))],
        environment: SystemEnvironment(effectExecutor: executor))
      executor.runUntilIdle()
      system.stop()
      executor.runUntilIdle()
      #expect(cancelled.entries == [true])
      subject.send(.add(1))
      executor.runUntilIdle()
      #expect(system.state.total == 0)
    }

    @Test("a publisher effect sends its events; a changed query cancels its subscription and drops its events (G4)")
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    func test_G4_publisherEffectCancelledWithItsQuery() {
      let executor = ManualTaskExecutor()
      let server = FakeServer()
      let cancellations = Recorder<String>()
      let system = System(
        initial: State(), reduce: Self.reduce,
        feedbacks: [
          Feedback.query(\.query) { query in
            .publisher(
              server.responses
                .map { Event.loaded("\(query): \($0)") }
                .handleEvents(receiveCancel: { cancellations.append(query) }))
          }
        ],
        environment: SystemEnvironment(effectExecutor: executor))
      system.send(.query("a"))
      executor.runUntilIdle()  // the effect subscribes
      server.responses.send("1")
      executor.runUntilIdle()
      #expect(system.state.log == ["a: 1"])

      system.send(.query("b"))  // cancels the effect for "a"
      executor.runUntilIdle()
      #expect(cancellations.entries == ["a"])
      server.responses.send("2")
      executor.runUntilIdle()
      #expect(system.state.log == ["a: 1", "b: 2"])
    }

    /// A service that effects capture: feedback closures are `@Sendable`, so
    /// what they capture must be too, as in any core feedback.
    final class FakeServer: @unchecked Sendable {
      // Sendable: `responses` is never replaced, and a subject may be sent to
      // and subscribed to from any thread (it guards its state with a lock).
      let responses = PassthroughSubject<String, Never>()
    }

    @Test("an effect from a publisher that completes at once (Just) sends its event")
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    func publisherEffectThatCompletesAtOnce() {
      let executor = ManualTaskExecutor()
      let system = System(
        initial: State(), reduce: Self.reduce,
        feedbacks: [Feedback.query(\.query) { query in .publisher(Just(.loaded(query))) }],
        environment: SystemEnvironment(effectExecutor: executor))
      system.send(.query("x"))
      executor.runUntilIdle()
      #expect(system.state.log == ["x"])
    }

    struct Offline: Error, Equatable {}

    @Test("G12 a failing publisher effect: a mapped failure is its last event; an unmapped one is reported")
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    func test_G12_failingPublisherEffect() {
      let executor = ManualTaskExecutor()
      let failures = Recorder<String>()
      let logs = LogRecorder()
      let system = System(
        initial: State(), reduce: Self.reduce,
        feedbacks: [
          Feedback.query(\.query) { query in
            .publisher(
              Fail<Event, Offline>(error: Offline()).prepend(.loaded(query))
            ) { _ in query == "mapped" ? .failed("offline") : nil }
          }
        ],
        environment: SystemEnvironment(effectExecutor: executor, logger: logs.logger),
        monitor: SystemMonitor { activity in
          if case .effectFailed(_, let error) = activity { failures.append("\(error)") }
        })
      system.send(.query("mapped"))
      executor.runUntilIdle()
      #expect(system.state.log == ["mapped", "failed: offline"])
      #expect(failures.entries.isEmpty)

      system.send(.query("unmapped"))
      executor.runUntilIdle()
      #expect(system.state.log == ["mapped", "failed: offline", "unmapped"])
      #expect(failures.entries == ["Offline()"])
      #expect(logs.messages == ["effect failed and its error is not mapped to an event"])
    }

    @Test("a system's states as a publisher: the current state, then every state, until cancelled")
    func systemStatePublisher() {
      let system = System(initial: State(), reduce: Self.reduce)
      system.send(.add(1))
      let totals = Recorder<Int>()
      let cancellable = system.statePublisher.map(\.total).sink { totals.append($0) }
      system.send(.add(1))
      system.send(.query(nil))  // an unchanged state is still a state (G3)
      #expect(totals.entries == [1, 2, 2])
      cancellable.cancel()
      system.send(.add(1))
      #expect(totals.entries == [1, 2, 2])
    }

    @Test("a publisher's subscriber that cancels at the first state stops receiving")
    func systemStatePublisherPrefix() {
      let system = System(initial: State(), reduce: Self.reduce)
      let totals = Recorder<Int>()
      let cancellable = system.statePublisher.prefix(1).map(\.total).sink { totals.append($0) }
      system.send(.add(5))
      #expect(totals.entries == [0])
      withExtendedLifetime(cancellable) {}
    }

    @Test("a store's states as a publisher: current first, distinct states, on the main actor; completes on stop")
    @MainActor
    func storeStatePublisher() {
      let store = Store(initial: State(), reduce: Self.reduce)
      let totals = Recorder<Int>()
      let completions = Recorder<Bool>()
      let cancellable = store.statePublisher.map(\.total).sink(
        receiveCompletion: { _ in completions.append(true) },
        receiveValue: { totals.append($0) })
      store.send(.add(2))
      store.send(.query(nil))  // leaves the Equatable state equal: not sent again
      store.send(.add(3))
      #expect(totals.entries == [0, 2, 5])
      store.stop()
      #expect(completions.entries == [true])
      withExtendedLifetime(cancellable) {}
    }

    @Test("G2 a send made while the store delivers a state is queued and reduced right after, in order")
    @MainActor
    func test_G2_reentrantSendFromASubscriber() {
      let store = Store(initial: State(), reduce: Self.reduce)
      let totals = Recorder<Int>()
      let cancellable = store.statePublisher.map(\.total).sink { total in
        totals.append(total)
        if total == 1 { store.send(.add(10)) }
      }
      store.send(.add(1))
      #expect(store.total == 11)  // before the outer send returned
      #expect(totals.entries == [0, 1, 11])
      withExtendedLifetime(cancellable) {}
    }

    @Test("a store's publisher completes when the store goes away")
    @MainActor
    func storeStatePublisherCompletesOnRelease() {
      let completions = Recorder<Bool>()
      var cancellable: AnyCancellable?
      do {
        let store = Store(initial: State(), reduce: Self.reduce)
        cancellable = store.statePublisher.sink(
          receiveCompletion: { _ in completions.append(true) }, receiveValue: { _ in })
      }
      #expect(completions.entries == [true])
      cancellable?.cancel()
    }

    @Test("a store with a publisher input: UI subjects keep working as they are")
    @MainActor
    @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
    func storeWithPublisherInput() {
      let executor = ManualTaskExecutor()
      let taps = PassthroughSubject<Event, Never>()
      let store = Store(
        initial: State(), reduce: Self.reduce, feedbacks: [.input(taps)],
        environment: SystemEnvironment(effectExecutor: executor))
      executor.runUntilIdle()
      taps.send(.add(4))
      executor.runUntilIdle()
      store.processQueuedEvents()
      #expect(store.total == 4)
    }
  }
#endif
