import FeedbackLoop
import FeedbackLoopTesting
import FeedbackLoopUI
import Observation
import Testing

/// The store calls Observation's registrar only for what changed and was
/// read since its last notification: these tests hold the notifications
/// that path must still make, and the ones it must not.
@MainActor
@Suite("Store: a notification for each change a reader waits for, none other", .runsLeftoverJobs)
struct StoreNotificationTests {
  struct Panel: Equatable, Sendable {
    var title = "Inbox"
    var unread = 0
    var flagged = 0
    var tags: [String] = []
    var tagCount: Int { tags.count }  // a computed member: no offset in the state
  }

  enum Event: Sendable {
    case rename(String)
    case receive
    case flag
    case tag(String)
    case same
  }

  nonisolated static func reduce(_ state: inout Panel, _ event: Event) {
    switch event {
    case .rename(let title): state.title = title
    case .receive: state.unread += 1
    case .flag: state.flagged += 1
    case .tag(let tag): state.tags.append(tag)
    case .same: break  // an event that leaves the state equal
    }
  }

  func makeStore() -> Store<Panel, Event> {
    Store(initial: Panel(), reduce: Self.reduce)
  }

  @Test("a member that did not change triggers no callback; one that changed does, every time it is read again")
  func onlyChangedMembersNotify() {
    let store = makeStore()
    let title = Tracker { _ = store.title }
    let unread = Tracker { _ = store.unread }
    let flagged = Tracker { _ = store.flagged }
    for round in 1...3 {
      store.send(.receive)
      #expect(unread.count == round)
      #expect(title.count == 0)
      #expect(flagged.count == 0)
      unread.rearm()
    }
    store.send(.same)
    #expect(unread.count == 3)
    store.send(.flag)
    #expect(flagged.count == 1)
    #expect(unread.count == 3)
    #expect(title.count == 0)
  }

  @Test("a member left unread for many changes notifies the reader that reads it again")
  func readAgainAfterUnreadChanges() {
    let store = makeStore()
    let first = Tracker { _ = store.unread }
    store.send(.receive)
    #expect(first.count == 1)
    for _ in 0..<5 { store.send(.receive) }  // nobody reads unread meanwhile
    #expect(first.count == 1)
    let second = Tracker { _ = store.unread }
    store.send(.receive)
    #expect(second.count == 1)
    #expect(store.unread == 7)
  }

  @Test("the whole state, left unread while it changed, notifies the reader that reads it again")
  func wholeStateReadAgain() {
    let store = makeStore()
    store.send(.receive)
    store.send(.flag)
    let whole = Tracker { _ = store.state }
    store.send(.same)
    #expect(whole.count == 0)
    store.send(.rename("Archive"))
    #expect(whole.count == 1)
    whole.rearm()
    store.send(.receive)
    #expect(whole.count == 2)
  }

  @Test("a reader that tracks again from its own callback hears of the next change")
  func rearmFromTheCallback() {
    let store = makeStore()
    // Weak: the store's registrar keeps the reader's callback, which keeps
    // the reader; a strong capture would make a cycle through the store.
    let reader = RearmingReader { [weak store] in _ = store?.unread }
    store.send(.receive)
    store.send(.receive)
    store.send(.flag)
    #expect(reader.changes.count == 2)
  }

  @Test("a reader armed from another member's callback, during the change, is told of that change")
  func readerArmedDuringTheChange() {
    let store = makeStore()
    _ = store.unread  // the store follows unread first, then flagged
    _ = store.flagged
    let flaggedChanges = ChangeCounter()
    withObservationTracking {
      _ = store.unread
    } onChange: {
      MainActor.assumeIsolated {
        withObservationTracking {
          _ = store.flagged
        } onChange: {
          flaggedChanges.increment()
        }
      }
    }
    store.send(.receive)  // unread changes; its callback arms a reader of flagged
    #expect(flaggedChanges.count == 0)
    store.send(.flag)
    #expect(flaggedChanges.count == 1)
  }

  @Test("members of several types and a computed one, changed by one event: each of their readers is notified once")
  func severalTypesChangedTogether() {
    let store = Store(
      initial: Panel(),
      reduce: { (state: inout Panel, _: Event) in
        state.title += "!"
        state.unread += 1
        state.tags.append("new")
      })
    let title = Tracker { _ = store.title }
    let unread = Tracker { _ = store.unread }
    let flagged = Tracker { _ = store.flagged }
    let tagCount = Tracker { _ = store.tagCount }
    store.send(.same)
    #expect([title.count, unread.count, flagged.count, tagCount.count] == [1, 1, 0, 1])
    #expect(store.title == "Inbox!")
  }

  @Test("a computed member read through the store notifies only when its value changes")
  func computedMember() {
    let store = makeStore()
    let tagCount = Tracker { _ = store.tagCount }
    store.send(.receive)
    #expect(tagCount.count == 0)
    store.send(.tag("work"))
    #expect(tagCount.count == 1)
    #expect(store.tagCount == 1)
  }

  @Test("G2 a send from a change callback is reduced after the current event, before the outer send returns")
  func sendFromTheCallback() {
    let store = makeStore()
    let unread = Tracker { _ = store.unread }
    withObservationTracking {
      _ = store.unread
    } onChange: {
      MainActor.assumeIsolated { store.send(.flag) }
    }
    store.send(.receive)
    #expect(store.unread == 1)
    #expect(store.flagged == 1)
    #expect(unread.count == 1)
  }

  @Test("a scoped store and a projection notify only when their part changes, and again after each read")
  func scopedAndProjected() {
    let store = makeStore()
    let unreadStore = store.scope(state: \.unread, event: { (event: Event) in event })
    let header = store.project { "\($0.title) (\($0.unread))" }
    let child = Tracker { _ = unreadStore.state }
    let view = Tracker { _ = header.state }
    store.send(.flag)
    #expect(child.count == 0)
    #expect(view.count == 0)
    store.send(.receive)
    #expect(child.count == 1)
    #expect(view.count == 1)
    #expect(header.state == "Inbox (1)")
    child.rearm()
    view.rearm()
    store.send(.rename("Archive"))
    #expect(child.count == 1)
    #expect(view.count == 2)
    store.send(.receive)
    #expect(child.count == 2)
    #expect(unreadStore.state == 2)
  }
}

/// A reader that tracks `read` again from inside its own change callback,
/// while the store is still notifying.
@MainActor
final class RearmingReader {
  let changes = ChangeCounter()
  private let read: @MainActor () -> Void

  init(_ read: @escaping @MainActor () -> Void) {
    self.read = read
    track()
  }

  private func track() {
    withObservationTracking {
      read()
    } onChange: {
      self.changes.increment()
      MainActor.assumeIsolated { self.track() }
    }
  }
}
