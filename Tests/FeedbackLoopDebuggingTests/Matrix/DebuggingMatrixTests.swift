import FeedbackLoop
import FeedbackLoopScenarios
import FeedbackLoopTesting
import Foundation
import Testing

@testable import FeedbackLoopDebugging

/// Every kind of system the library makes, with every debugging tool: one
/// test per cell. A new kind or a new tool is a new case of ``SystemKind``
/// or ``DebuggingTool``; the switches below are exhaustive, so the new case
/// does not build until its cells are written, and the arguments are every
/// pair of cases, so no cell is skipped.
@Suite(.runsLeftoverJobs) struct DebuggingMatrixTests {
  enum SystemKind: String, CaseIterable, Sendable {
    case plain, declared, statechart, cycle, composedFeature, parentWithChildSystems

    var kind: any MatrixKind.Type {
      switch self {
      case .plain: PlainKind.self
      case .declared: DeclaredKind.self
      case .statechart: ChartKind.self
      case .cycle: CycleKind.self
      case .composedFeature: ComposedKind.self
      case .parentWithChildSystems: ParentKind.self
      }
    }
  }

  enum DebuggingTool: String, CaseIterable, Sendable {
    case timelineFile, replay, timeTravel, fixtures, connect
  }

  struct Cell: Sendable, CustomTestStringConvertible {
    var kind: SystemKind
    var tool: DebuggingTool
    var testDescription: String { "\(kind.rawValue) × \(tool.rawValue)" }
  }

  static let cells = SystemKind.allCases.flatMap { kind in DebuggingTool.allCases.map { Cell(kind: kind, tool: $0) } }

  @Test("every kind of system works with every debugging tool", arguments: cells)
  func cell(_ cell: Cell) throws {
    try Self.exercise(cell.tool, cell.kind.kind)
  }

  @Test("the matrix has a cell for every kind and every tool")
  func everyCell() {
    #expect(Self.cells.count == SystemKind.allCases.count * DebuggingTool.allCases.count)
    #expect(Set(Self.cells.map(\.testDescription)).count == Self.cells.count)
  }

  static func exercise<Kind: MatrixKind>(_ tool: DebuggingTool, _ kind: Kind.Type) throws {
    switch tool {
    case .timelineFile: try timelineFile(kind)
    case .replay: replay(kind)
    case .timeTravel: try timeTravel(kind)
    case .fixtures: try fixtures(kind)
    case .connect: try connect(kind)
    }
  }

  /// The session, recorded.
  static func recorded<Kind: MatrixKind>(
    _ kind: Kind.Type, harness: Harness = Harness(), recorder: Recorder<Kind.State, Kind.Event> = .init()
  ) -> (System<Kind.State, Kind.Event>, Recorder<Kind.State, Kind.Event>) {
    let system = Kind.start(harness, monitor: recorder.monitor)
    Kind.script(system, harness)
    harness.settle()
    return (system, recorder)
  }

  /// Written to a timeline file, read back: the same moments.
  static func timelineFile<Kind: MatrixKind>(_ kind: Kind.Type) throws {
    let url = FileManager.default.temporaryDirectory.appendingPathComponent("matrix-\(UUID().uuidString).jsonl")
    defer { try? FileManager.default.removeItem(at: url) }
    let writer = try TimelineFileWriter<Kind.State, Kind.Event>(url: url)
    let (system, recorder) = recorded(kind, recorder: Recorder(capacity: 100, file: writer))
    system.stop()
    let summary = writer.finish()
    #expect(summary.dropped == 0 && summary.unencodable == 0)
    let file = try TimelineFile<Kind.State, Kind.Event>(contentsOf: url)
    #expect(file.problems.isEmpty, "\(file.problems)")
    #expect(recorder.moments.count >= 4)
    #expect(file.moments.map(\.sequence) == recorder.moments.map(\.sequence))
    #expect(file.moments.map(\.state) == recorder.moments.map(\.state))
    #expect(file.moments.map(\.event) == recorder.moments.map(\.event))
  }

  /// Replayed: identical; with one recorded state planted from the moment
  /// before, the first divergence is that moment.
  static func replay<Kind: MatrixKind>(_ kind: Kind.Type) {
    let (system, recorder) = recorded(kind)
    system.stop()
    var moments = recorder.moments
    let report = Replay.check(moments, reduce: Kind.reduce)
    #expect(report.isIdentical, "\(report.divergence.map(String.init(describing:)) ?? "")")
    #expect(report.replayed == moments.count - 1)

    let planted = moments.indices.dropFirst(2).first { moments[$0].state != moments[$0 - 1].state }!
    moments[planted].state = moments[planted - 1].state
    let divergence = Replay.check(moments, reduce: Kind.reduce).divergence
    #expect(divergence?.moment.sequence == moments[planted].sequence)
  }

  /// A jump, a playback of events and one of states, an edited state:
  /// each changes the running system's state.
  static func timeTravel<Kind: MatrixKind>(_ kind: Kind.Type) throws {
    let harness = Harness()
    let (system, recorder) = recorded(kind, harness: harness)
    defer { system.stop() }
    let session = recorder.moments
    let last = session.last!
    let machine = TimeMachine(system: system, recorder: recorder)

    #expect(machine.jump(to: 1))
    harness.settle()
    #expect(system.state == session[1].state)
    #expect(system.state != last.state)

    machine.playEvents(from: 0, through: last.sequence)
    harness.settle()
    #expect(system.state == last.state)

    machine.jump(to: 0)
    harness.settle()
    #expect(machine.playStates(from: 1, through: last.sequence) == session.count - 1)
    harness.settle()
    #expect(system.state == last.state)

    // The reducer a test or a replay calls takes the jump too.
    var reduced = session[0].state
    Kind.reduce(&reduced, .travel(toAnyState: last.state))
    #expect(reduced == last.state)

    let edited = Kind.edited(system.state)
    #expect(edited != system.state)
    machine.jump(toState: try JSONValue(encoding: edited).decode(Kind.State.self))
    harness.settle()
    #expect(system.state == edited)
  }

  /// Exported as a test file: the committed file (compiled and run with
  /// this target) is what the writer writes from the session today.
  static func fixtures<Kind: MatrixKind>(_ kind: Kind.Type) throws {
    let (system, recorder) = recorded(kind)
    system.stop()
    let fixtures = Fixture.from(recorder.moments)
    #expect(fixtures.count == recorder.moments.count - 1)
    let writer = FixtureTestWriter(
      suite: Kind.fixtureSuite, module: nil, stateType: Kind.stateType, eventType: Kind.eventType,
      reducer: Kind.reducer, reducerStyle: .inPlace,
      note: """
        The \(Kind.self) session of DebuggingMatrixTests, kept as a golden file. Do not edit: regenerate with
        \(GeneratedFixtureGoldenTests.regenerate.replacingOccurrences(of: "GeneratedFixtureGoldenTests", with: "DebuggingMatrixTests"))
        """)
    let source = try writer.source(for: fixtures)
    let url = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
      .appendingPathComponent("Generated/\(Kind.fixtureSuite).swift")
    if ProcessInfo.processInfo.environment["FEEDBACKLOOP_REGENERATE_FIXTURES"] != nil {
      try source.write(to: url, atomically: true, encoding: .utf8)
    }
    let committed = try String(contentsOf: url, encoding: .utf8)
    #expect(committed == source, "regenerate with FEEDBACKLOOP_REGENERATE_FIXTURES=1, review, commit")
  }

  /// What the monitor's client sends and applies: every reduction as an
  /// inspection message whose state and event decode back, the page's
  /// edited state applied through the time machine, and the diagram.
  static func connect<Kind: MatrixKind>(_ kind: Kind.Type) throws {
    let harness = Harness()
    let recorder = Recorder<Kind.State, Kind.Event>(system: "matrix")
    let lines = InspectionTests.Lines()
    recorder.stream.add { inspection in
      if let line = try? InspectionMessage(inspection, serializer: .codable).jsonLine() { lines.append(line) }
    }
    let (system, _) = recorded(kind, harness: harness, recorder: recorder)
    defer { system.stop() }
    monitorClientAccepts(system: system, recorder: recorder)

    let messages = try lines.all.map { try JSONDecoder().decode(InspectionMessage.self, from: Data($0.utf8)) }
    let reduced = messages.filter { $0.kind == .reduced }
    let moments = recorder.moments.dropFirst()
    #expect(reduced.count == moments.count)
    for (message, moment) in zip(reduced, moments) {
      #expect(try message.state?.decode(Kind.State.self) == moment.state)
      #expect(try message.event?.decode(Kind.Event.self) == moment.event)
    }

    let edited = try JSONValue(encoding: Kind.edited(system.state))
    TimeMachine(system: system, recorder: recorder).jump(toState: try edited.decode(Kind.State.self))
    harness.settle()
    #expect(try JSONValue(encoding: system.state) == edited)

    if let diagram = Kind.diagram {
      for shown in diagram.shows { #expect(diagram.text.contains(shown), "\(diagram.text)") }
    }
  }

  /// The requirements of the monitor's client (`MonitorClient.connect`):
  /// a kind that does not meet them does not build.
  static func monitorClientAccepts<State: Codable & Sendable, Event: Codable & AnyStateTravelEvent>(
    system: System<State, Event>, recorder: Recorder<State, Event>
  ) {}
}
