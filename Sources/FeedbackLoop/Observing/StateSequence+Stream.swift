extension StateSequence {
  /// A state sequence read from `stream`, for the other products of this
  /// package whose states come from a stream of their own (the UI store's
  /// `states` yields the states the store takes, which skip equal ones), so
  /// that every "states of" API in the package returns this one type.
  package init(_ stream: AsyncStream<State>) {
    self.init(stream: stream)
  }
}
