/// A Cycle application's event as JSON, each case as Swift writes an enum's:
/// `{"driver":{…}}` (a ``DriverEvent``), `{"tick":{}}`,
/// `{"driverEnded":{"driver":"clock"}}`,
/// `{"driverFailed":{"driver":"network","message":"offline"}}`,
/// `{"travel":{"type":"FeedbackLoopCycle.Reel<App.Frame>","state":{…}}}`.
/// Encoding and decoding a driver's event, or a jump's reel, need what
/// ``DriverEvent``'s `Codable` needs (a ``Router`` whose frame is `Codable`
/// makes its reel's type known).
///
/// ```swift
/// let recorder = Recorder(capacity: 100, file: try TimelineFileWriter<Reel<App.Frame>, CycleEvent>(url: url))
/// ```
extension CycleEvent: Codable {
  private enum CodingKeys: String, CodingKey {
    case driver, tick, driverEnded, driverFailed, travel
  }

  private enum TravelKeys: String, CodingKey {
    case type, state
  }

  private enum EndKeys: String, CodingKey {
    case driver, message
  }

  public func encode(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    switch self {
    case .driver(let event):
      try container.encode(event, forKey: .driver)
    case .tick:
      _ = container.nestedContainer(keyedBy: EndKeys.self, forKey: .tick)
    case .driverEnded(let name):
      var end = container.nestedContainer(keyedBy: EndKeys.self, forKey: .driverEnded)
      try end.encode(name, forKey: .driver)
    case .driverFailed(let name, let message):
      var end = container.nestedContainer(keyedBy: EndKeys.self, forKey: .driverFailed)
      try end.encode(name, forKey: .driver)
      try end.encode(message, forKey: .message)
    case .travel(let reel):
      var travel = container.nestedContainer(keyedBy: TravelKeys.self, forKey: .travel)
      try travel.encode(DriverEventTypes.name(of: type(of: reel)), forKey: .type)
      guard let encodable = reel as? any Encodable else {
        throw EncodingError.invalidValue(
          reel,
          EncodingError.Context(
            codingPath: travel.codingPath + [TravelKeys.state],
            debugDescription: "a jump's \(type(of: reel)) is not Encodable: make the frame Codable"))
      }
      try travel.encode(encodable, forKey: .state)
    }
  }

  public init(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    guard let key = container.allKeys.first, container.allKeys.count == 1 else {
      throw DecodingError.dataCorrupted(
        DecodingError.Context(
          codingPath: container.codingPath,
          debugDescription: "a Cycle event has one key of driver, tick, driverEnded, driverFailed, travel"))
    }
    switch key {
    case .driver:
      self = .driver(try container.decode(DriverEvent.self, forKey: .driver))
    case .tick:
      self = .tick
    case .driverEnded:
      let end = try container.nestedContainer(keyedBy: EndKeys.self, forKey: .driverEnded)
      self = .driverEnded(try end.decode(String.self, forKey: .driver))
    case .driverFailed:
      let end = try container.nestedContainer(keyedBy: EndKeys.self, forKey: .driverFailed)
      self = .driverFailed(
        try end.decode(String.self, forKey: .driver), message: try end.decode(String.self, forKey: .message))
    case .travel:
      let travel = try container.nestedContainer(keyedBy: TravelKeys.self, forKey: .travel)
      let typeName = try travel.decode(String.self, forKey: .type)
      guard let decode = DriverEventTypes.decoder(named: typeName) else {
        throw DecodingError.dataCorruptedError(
          forKey: .type, in: travel,
          debugDescription: "no Decodable reel type is called \(typeName): build the router (its frame Codable) first")
      }
      self = .travel(to: try decode(try travel.superDecoder(forKey: .state)))
    }
  }
}
