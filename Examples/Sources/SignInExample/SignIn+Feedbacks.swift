import FeedbackLoop

extension SignIn {
  /// The three feedbacks of the authentication loop.
  ///
  /// - Parameter auth: the server that signs in and refreshes.
  public static func feedbacks(auth: some AuthService) -> [Feedback<State, Event>] {
    [
      Feedback.query(\.credentialsToSend, name: "sign in") { credentials in
        .task {
          .signedIn(try await auth.signIn(credentials))
        } catch: { error in
          .signInFailed(error as? SignInFailure ?? .unavailable)
        }
      },
      Feedback.query(\.sessionToExpire, name: "token expiry") { session in
        .after(session.lifetime, send: .tokenExpired)
      },
      Feedback.query(\.sessionToRefresh, name: "refresh") { session in
        .task {
          .refreshed(try await auth.refresh(session))
        } catch: { error in
          .refreshFailed(error as? SignInFailure ?? .unavailable)
        }
      },
    ]
  }
}
