import FeedbackLoop
import Testing

/// Hostile cases for the features the compiler composes (issue 15), each
/// compared with the same feature composed through closures.
@Suite(.runsLeftoverJobs) struct EventCaseRedTeamTests {
  // MARK: - Observed and computed properties: a discard changes nothing

  /// A parent whose optional child is observed: each write to it counts.
  struct Observed: Sendable, Equatable {
    var writes = 0
    var child: Int? { didSet { writes += 1 } }
  }

  /// A selection kept as an id, with the selected child computed from it: a
  /// write of `nil` clears the selection.
  struct Selection: Sendable, Equatable {
    var items: [Int: Int] = [:]
    var selectedID: Int?
    var selected: Int? {
      get { selectedID.flatMap { items[$0] } }
      set {
        guard let id = selectedID else { return }
        if let newValue { items[id] = newValue } else { selectedID = nil }
      }
    }
  }

  @Test("an event for an optional child that is nil writes nothing back, through an observed property")
  func optionalDiscardDoesNotWriteObservedProperty() {
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(returning: +))
    let closures = counter.lifted(optional: \Observed.child, event: EventPath<Int, Int>.identity)
    let cases = counter.lifted(optional: \Observed.child, event: SameEvent())
    var byClosures = Observed()
    var byCases = Observed()
    let closureDiscard = closures.reduceReportingDiscards(&byClosures, 1)
    let caseDiscard = cases.reduceReportingDiscards(&byCases, 1)
    #expect(caseDiscard == closureDiscard)
    #expect(byClosures.writes == 0)
    #expect(byCases.writes == 0, "a discarded event ran the property's observer")
    #expect(byCases == byClosures)
    byCases.child = 1
    byClosures.child = 1
    _ = closures.reduceReportingDiscards(&byClosures, 2)
    _ = cases.reduceReportingDiscards(&byCases, 2)
    #expect(byCases == byClosures)
    #expect(byCases.child == 3)
  }

  @Test("an event for an optional child that is nil leaves a computed selection alone")
  func optionalDiscardDoesNotClearComputedSelection() {
    let counter = Feature<Int, Int>(name: "counter", reducer: Reducer(returning: +))
    let cases = counter.lifted(optional: \Selection.selected, event: SameEvent())
    let closures = counter.lifted(optional: \Selection.selected, event: EventPath<Int, Int>.identity)
    // Selected 5, whose item is not loaded yet.
    var byCases = Selection(items: [:], selectedID: 5)
    var byClosures = byCases
    let caseDiscard = cases.reduceReportingDiscards(&byCases, 1)
    _ = closures.reduceReportingDiscards(&byClosures, 1)
    #expect(caseDiscard?.contains("is nil") == true)
    #expect(byClosures.selectedID == 5)
    #expect(byCases.selectedID == 5, "a discarded event cleared the selection")
    // The item arrives: the selection shows it, and events reach it.
    byCases.items[5] = 10
    #expect(cases.reduceReportingDiscards(&byCases, 1) == nil)
    #expect(byCases.items[5] == 11)
  }
}
