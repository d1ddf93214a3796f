#if canImport(Combine)
  import Combine
#elseif canImport(OpenCombine)
  import OpenCombine
#endif

#if canImport(Combine) || canImport(OpenCombine)
  /// The outputs of a publisher as an asynchronous sequence: each iteration
  /// subscribes (with unlimited demand), buffers what the publisher sends
  /// until it is read, ends when the publisher completes, and cancels the
  /// subscription when the iteration ends or its task is cancelled.
  ///
  /// The bridge from Combine into the core, whose inputs and effects are
  /// asynchronous sequences.
  struct PublisherEvents<Upstream: Publisher>: AsyncSequence, @unchecked Sendable
  where Upstream.Output: Sendable, Upstream.Failure == Never {
    // Sendable: `upstream` is never mutated; it is only read, to subscribe,
    // once per iteration, from the task that iterates. Subscribing to a
    // publisher from any thread is part of Combine's contract: value
    // publishers (operators) hold immutable configuration, and reference
    // publishers (subjects, `AnyPublisher`'s box, `Future`) synchronize
    // their subscriptions with a lock, in Combine and in OpenCombine alike.
    typealias Element = Upstream.Output

    let upstream: Upstream

    func makeAsyncIterator() -> AsyncStream<Element>.Iterator {
      let (stream, continuation) = AsyncStream<Element>.makeStream(bufferingPolicy: .unbounded)
      let subscription = CancellationBox()
      continuation.onTermination = { _ in subscription.cancel() }
      let cancellable = upstream.sink(
        receiveCompletion: { _ in continuation.finish() },
        receiveValue: { continuation.yield($0) })
      subscription.hold(cancellable.cancel)
      return stream.makeAsyncIterator()
    }
  }
#endif
