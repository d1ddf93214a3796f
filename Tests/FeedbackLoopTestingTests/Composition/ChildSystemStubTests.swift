import FeedbackLoop
import FeedbackLoopTesting
import Testing

/// A parent of uploads, each a child system, tested alone with stubs.
enum Uploads {
  struct Upload: Sendable, Equatable {
    var sent = 0
    var done = false
  }

  enum UploadEvent: Sendable, Equatable { case chunk }

  struct State: Sendable, Equatable {
    var files: TrackedDictionary<String, Int> = [:]
    var done: [String] = []
  }

  enum Event: Sendable, Equatable {
    case add(String, size: Int)
    case chunk(String)
    case finished(String)
  }

  static func reduce(_ state: inout State, _ event: Event) {
    switch event {
    case .add(let file, let size): state.files[file] = size
    case .chunk: break
    case .finished(let file):
      state.done.append(file)
      state.files[file] = nil
    }
  }

  typealias Child = System<Upload, UploadEvent>

  static func feedback(
    _ children: ChildSystems<String, Upload, UploadEvent>, make: @escaping @Sendable (String, Int) -> Child
  ) -> Feedback<State, Event> {
    .childSystems(
      children, for: \.files, make: make,
      route: { if case .chunk(let file) = $0 { (file, .chunk) } else { nil } },
      outcome: { file, upload in upload.done ? .finished(file) : nil })
  }
}

@Suite("Child systems replaced by stubs", .runsLeftoverJobs)
struct ChildSystemStubTests {
  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aParentIsTestedAloneWithItsChildrenStubbedByTypeAndKey() {
    let stubs = ChildSystemStubs()
    stubs.stub(Uploads.Child.self, id: "a.txt", initial: Uploads.Upload()) { upload, _ in upload.done = true }
    let children = ChildSystems<String, Uploads.Upload, Uploads.UploadEvent>()
    let app = TestSystem(
      initial: Uploads.State(), reduce: Uploads.reduce,
      feedbacks: [Uploads.feedback(children, make: stubs.make(Uploads.Child.self, placeholder: Uploads.Upload()))])
    app.send(.add("a.txt", size: 10)) { $0.files["a.txt"] = 10 }
    #expect(stubs.startCount(Uploads.Child.self, id: "a.txt") == 1)
    app.send(.chunk("a.txt"))
    app.receive(.finished("a.txt")) {
      $0.done = ["a.txt"]
      $0.files["a.txt"] = nil
    }
    #expect(stubs.received(Uploads.Child.self, id: "a.txt") == [.chunk])
    #expect(children.count == 0)
    stubs.verify()
    app.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func anExpectedChildThatNeverStartedFailsTheTest() {
    let failures = FailureLog()
    let stubs = ChildSystemStubs(reporter: failures.reporter)
    stubs.stub(Uploads.Child.self, id: "a.txt", initial: Uploads.Upload())
    stubs.stub(Uploads.Child.self, id: "b.txt", initial: Uploads.Upload())
    let children = ChildSystems<String, Uploads.Upload, Uploads.UploadEvent>()
    let app = TestSystem(
      initial: Uploads.State(), reduce: Uploads.reduce,
      feedbacks: [Uploads.feedback(children, make: stubs.make(Uploads.Child.self, placeholder: Uploads.Upload()))])
    app.send(.add("a.txt", size: 1)) { $0.files["a.txt"] = 1 }
    stubs.verify()
    #expect(failures.kinds == [.childSystem])
    #expect(failures.failures.first?.message.contains("b.txt") == true)
    // The child a.txt still runs: its outcome pump is an effect in flight.
    #expect(app.effectsInFlight.map(\.trigger) == ["a.txt"])
    app.skipInFlightEffects()
    app.finish()
  }

  @available(macOS 15.0, iOS 18.0, tvOS 18.0, watchOS 11.0, *)
  @Test func aChildStartedWithoutAStubFailsTheTest() {
    let failures = FailureLog()
    let stubs = ChildSystemStubs(reporter: failures.reporter)
    let children = ChildSystems<String, Uploads.Upload, Uploads.UploadEvent>()
    let app = TestSystem(
      initial: Uploads.State(), reduce: Uploads.reduce,
      feedbacks: [Uploads.feedback(children, make: stubs.make(Uploads.Child.self, placeholder: Uploads.Upload()))])
    app.send(.add("c.txt", size: 1)) { $0.files["c.txt"] = 1 }
    #expect(failures.kinds == [.childSystem])
    #expect(failures.failures.first?.message.contains("did not stub") == true)
    stubs.verify()
    app.skipInFlightEffects()
    app.finish()
  }
}
