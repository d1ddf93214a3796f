/// A statechart's state as JSON: its context, its active states and the
/// states its history remembers by name, and the chart's states (names,
/// parents, kinds) it belongs to, so that a timeline file or an edited state
/// decodes with no chart at hand.
///
/// ```json
/// {"context":{"volume":7},"active":["player","loaded","paused"],"history":[],"finished":false,
///  "entries":[1,1,0,1],"states":[{"id":"player","parent":-1,"kind":"compound"},…]}
/// ```
///
/// An edited state names its active states; a name the chart does not have
/// is a decoding error that names it.
extension ChartSnapshot: Codable where Context: Codable {
  private enum CodingKeys: String, CodingKey {
    case context, active, history, finished, entries, states
  }

  private struct StateRecord: Codable {
    var id: String
    var parent: Int
    var kind: String
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try container.encode(context, forKey: .context)
    try container.encode(activeStates, forKey: .active)
    try container.encode(names(in: history), forKey: .history)
    try container.encode(finished, forKey: .finished)
    try container.encode(Array(entries), forKey: .entries)
    let states = layout.names.indices.map { index in
      StateRecord(id: layout.names[index], parent: layout.parents[index], kind: Self.kindName(layout.kinds[index]))
    }
    try container.encode(states, forKey: .states)
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    let records = try container.decode([StateRecord].self, forKey: .states)
    var kinds: [ChartNodeKind] = []
    for record in records {
      guard let kind = Self.kind(named: record.kind) else {
        throw DecodingError.dataCorruptedError(
          forKey: .states, in: container, debugDescription: "\(record.id) has no kind of state called \(record.kind)")
      }
      kinds.append(kind)
    }
    guard records.count <= 64, Set(records.map(\.id)).count == records.count else {
      throw DecodingError.dataCorruptedError(
        forKey: .states, in: container, debugDescription: "a chart has at most 64 states, each named once")
    }
    let layout = ChartLayout(names: records.map(\.id), parents: records.map(\.parent), kinds: kinds)
    self.init(context: try container.decode(Context.self, forKey: .context), layout: layout)
    configuration = try Self.mask(try container.decode([String].self, forKey: .active), layout, .active, container)
    history = try Self.mask(
      try container.decodeIfPresent([String].self, forKey: .history) ?? [], layout, .history, container)
    finished = try container.decodeIfPresent(Bool.self, forKey: .finished) ?? false
    if let entries = try container.decodeIfPresent([UInt32].self, forKey: .entries) {
      guard entries.count == records.count else {
        throw DecodingError.dataCorruptedError(
          forKey: .entries, in: container, debugDescription: "one entry count per state: \(records.count)")
      }
      self.entries = ContiguousArray(entries)
    }
  }

  private func names(in mask: UInt64) -> [String] {
    layout.names.indices.filter { mask & (1 << UInt64($0)) != 0 }.map { layout.names[$0] }
  }

  private static func mask(
    _ names: [String], _ layout: ChartLayout, _ key: CodingKeys, _ container: KeyedDecodingContainer<CodingKeys>
  ) throws -> UInt64 {
    var mask: UInt64 = 0
    for name in names {
      guard let index = layout.index[name] else {
        throw DecodingError.dataCorruptedError(
          forKey: key, in: container, debugDescription: "the chart has no state called \(name)")
      }
      mask |= 1 << UInt64(index)
    }
    return mask
  }

  private static func kindName(_ kind: ChartNodeKind) -> String {
    switch kind {
    case .atomic: "atomic"
    case .compound: "compound"
    case .parallel: "parallel"
    case .final: "final"
    case .history(deep: false): "history"
    case .history(deep: true): "deepHistory"
    }
  }

  private static func kind(named name: String) -> ChartNodeKind? {
    switch name {
    case "atomic": .atomic
    case "compound": .compound
    case "parallel": .parallel
    case "final": .final
    case "history": .history(deep: false)
    case "deepHistory": .history(deep: true)
    default: nil
    }
  }
}

/// A chart's state dumps as what it says: the active states, whether the
/// chart finished, and the context; not its bit masks, its entry counts or
/// its layout.
extension ChartSnapshot: CustomReflectable {
  public var customMirror: Mirror {
    Mirror(
      self, children: ["activeStates": activeStates, "isFinished": isFinished, "context": context],
      displayStyle: .struct)
  }
}
