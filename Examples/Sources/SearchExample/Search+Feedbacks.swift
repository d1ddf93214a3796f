import FeedbackLoop

extension Search {
  /// The search's one effectful feedback: the talk's `searchRequestFeedback`.
  ///
  /// It loads the page that ``State/pageToLoad`` asks for. A new search
  /// changes the query, which cancels the request in flight (its answer, if
  /// already on its way, never reaches the reducer); an error maps to
  /// ``Event/failure(_:)``.
  ///
  /// The person's searches, scrolls and retries are sent to the system from
  /// outside (``FeedbackLoop/System/send(_:isolation:)`` or an
  /// ``FeedbackLoop/Input``).
  ///
  /// - Parameter api: where pages come from.
  public static func feedbacks(api: some SearchAPI) -> [Feedback<State, Event>] {
    [
      Feedback.query(\.pageToLoad, name: "page request") { request in
        .task {
          .success(try await api.page(request))
        } catch: { error in
          .failure(error as? SearchFailure ?? .unreachable)
        }
      }
    ]
  }
}
