import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Observation
import Testing

/// What a SwiftUI view re-renders for: Observation notifies a reader only
/// for what it read.
@MainActor
@Suite("Observation: only what a view reads notifies it", .runsLeftoverJobs)
struct ObservationTrackingTests {
  struct Profile: Equatable, Sendable {
    var name = "Ada"
    var visits = 0
    var notes: [String] = []
  }

  enum Event: Sendable {
    case rename(String)
    case visit
    case note(String)
    case nothing
  }

  nonisolated static func reduce(_ state: inout Profile, _ event: Event) {
    switch event {
    case .rename(let name): state.name = name
    case .visit: state.visits += 1
    case .note(let note): state.notes.append(note)
    case .nothing: break
    }
  }

  func makeStore() -> Store<Profile, Event> {
    Store(initial: Profile(), reduce: Self.reduce)
  }

  @Test("a member read through the store notifies only when that member changes")
  func memberReadsAreFineGrained() {
    let store = makeStore()
    let name = Tracker { _ = store.name }
    let visits = Tracker { _ = store.visits }

    store.send(.visit)
    #expect(name.count == 0)
    #expect(visits.count == 1)
    #expect(store.visits == 1)

    visits.rearm()
    store.send(.rename("Grace"))
    #expect(name.count == 1)
    #expect(visits.count == 1)
    #expect(store.name == "Grace")
  }

  @Test("a member that an event leaves equal notifies nobody")
  func equalMemberDoesNotNotify() {
    let store = makeStore()
    let name = Tracker { _ = store.name }
    store.send(.rename("Ada"))
    store.send(.nothing)
    #expect(name.count == 0)
  }

  @Test("reading the whole state notifies for any change, and not for an equal state")
  func wholeStateReads() {
    let store = makeStore()
    let whole = Tracker { _ = store.state }
    store.send(.nothing)  // an event that leaves an Equatable state equal
    #expect(whole.count == 0)
    store.send(.note("first"))
    #expect(whole.count == 1)
    whole.rearm()
    store.send(.visit)
    #expect(whole.count == 2)
  }

  @Test("isStopped notifies only when the system stops, not for states")
  func isStoppedIsSeparate() {
    let store = makeStore()
    let stopped = Tracker { _ = store.isStopped }
    store.send(.visit)
    store.send(.rename("Grace"))
    #expect(stopped.count == 0)
    store.stop()
    #expect(stopped.count == 1)
  }

  @Test("the notification comes before send returns, and the new value is readable then")
  func notificationIsSynchronous() {
    let store = makeStore()
    let visits = Tracker { _ = store.visits }
    store.send(.visit)
    #expect(visits.count == 1)
    #expect(store.visits == 1)
  }

  struct Box: Sendable {
    var value = 0
    var other = 0
  }

  @Test(
    "a state that is not Equatable notifies whole-state readers for every event; its Equatable members stay fine-grained"
  )
  func nonEquatableState() {
    let store = Store(
      initial: Box(),
      reduceReturning: { box, isValue in
        var box = box
        if isValue { box.value += 1 } else { box.other += 1 }
        return box
      })
    let whole = Tracker { _ = store.state }
    let value = Tracker { _ = store.value }
    store.send(false)
    #expect(whole.count == 1)
    #expect(value.count == 0)
    store.send(true)
    #expect(value.count == 1)
  }
}
