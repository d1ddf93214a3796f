import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// The requests feedback guide's code (RequestsFeedback.md), and the tests
/// that hold its timeline.
enum RequestsGuide {
  enum Gallery {
    struct State: Sendable, Equatable {
      var visible: Set<Int> = []
      var thumbnails: [Int: String] = [:]
    }

    enum Event: Sendable, Equatable {
      case scrolled(to: Set<Int>)
      case loaded(Int, String)
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .scrolled(let visible): state.visible = visible
      case .loaded(let photo, let thumbnail): state.thumbnails[photo] = thumbnail
      }
    }

    /// One download per visible photo without a thumbnail.
    static func missingThumbnails(_ state: State) -> Set<Int> {
      state.visible.filter { state.thumbnails[$0] == nil }
    }

    static func feedbacks(
      download: @escaping @Sendable (Int) async throws -> String
    ) -> [Feedback<State, Event>] {
      [
        Feedback.requests(missingThumbnails, name: "thumbnails") { photo in
          .task { .loaded(photo, try await download(photo)) }
        }
      ]
    }
  }

  enum Uploads {
    struct State: Sendable, Equatable {
      var priorityByID: [Int: Int] = [:]
    }

    enum Event: Sendable, Equatable {
      case prioritized(Int, Int)
      case uploaded(Int)
    }

    static func reduce(_ state: inout State, _ event: Event) {
      switch event {
      case .prioritized(let id, let priority): state.priorityByID[id] = priority
      case .uploaded(let id): state.priorityByID[id] = nil
      }
    }

    /// One upload per id; a new priority reaches the running upload.
    static func feedbacks(
      upload: @escaping @Sendable (Int, Int, AsyncStream<Int>) async throws -> Void
    ) -> [Feedback<State, Event>] {
      [
        Feedback.requests(\.priorityByID, name: "uploads") { id, priority, priorityChanges in
          .run { send in
            try await upload(id, priority, priorityChanges)
            send(.uploaded(id))
          }
        }
      ]
    }
  }
}

@Suite struct RequestsGuideTests {
  @Test("G6 the requests guide's timeline: a new request starts, a kept one goes on, a removed one is cancelled")
  func timeline() {
    let clock = TestClock(executor: ManualTaskExecutor())
    let downloads = Calls()
    let gallery = TestSystem(
      initial: RequestsGuide.Gallery.State(), reduce: RequestsGuide.Gallery.reduce,
      feedbacks: RequestsGuide.Gallery.feedbacks { photo in
        downloads.record("\(photo)")
        try await clock.sleep(for: .milliseconds(100))
        return "thumbnail \(photo)"
      },
      clock: clock)

    gallery.send(.scrolled(to: [1])) { $0.visible = [1] }
    gallery.advance(by: .milliseconds(50))
    gallery.send(.scrolled(to: [1, 2])) { $0.visible = [1, 2] }
    gallery.advance(by: .milliseconds(50))
    gallery.receive(.loaded(1, "thumbnail 1")) { $0.thumbnails[1] = "thumbnail 1" }
    gallery.send(.scrolled(to: [1])) { $0.visible = [1] }
    gallery.advance(by: .seconds(1))
    gallery.finish()
    #expect(downloads.values == ["1", "2"])
  }

  @Test("G6 the requests guide's uploads: a kept id's new value reaches its running effect, which does not restart")
  func byID() {
    let clock = TestClock(executor: ManualTaskExecutor())
    let calls = Calls()
    let uploads = TestSystem(
      initial: RequestsGuide.Uploads.State(), reduce: RequestsGuide.Uploads.reduce,
      feedbacks: RequestsGuide.Uploads.feedbacks { id, priority, priorityChanges in
        calls.record("upload \(id) at \(priority)")
        for await priority in priorityChanges {
          calls.record("upload \(id) now at \(priority)")
          if priority == 0 { return }
        }
      },
      clock: clock)

    uploads.send(.prioritized(7, 1)) { $0.priorityByID = [7: 1] }
    uploads.send(.prioritized(7, 0)) { $0.priorityByID = [7: 0] }
    uploads.receive(.uploaded(7)) { $0.priorityByID = [:] }
    uploads.finish()
    #expect(calls.values == ["upload 7 at 1", "upload 7 now at 0"])
  }
}
