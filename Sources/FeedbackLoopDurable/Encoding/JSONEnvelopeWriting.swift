import Foundation

/// A record that ``JSONDurableCodec`` writes by encoding its value alone and
/// putting the envelope's own bytes around it.
///
/// Foundation's `JSONEncoder` spent about half of an event's encoding on the
/// envelope's keyed container: a small event cost 6 µs inside it against
/// 3 µs alone (D1's encoding, the durable benchmarks), and the writer's
/// encoding is most of a durable system's time to its commit. The bytes are
/// the same as the encoder's for the whole envelope with sorted keys
/// (`EnvelopeWritingTests` compares them); a value that does not encode on
/// its own (one that encodes nothing at all) goes the encoder's whole way.
protocol JSONWrittenEnvelope {
  /// The envelope's JSON, with `encoder` for its value.
  func writeJSON(with encoder: JSONEncoder) throws -> Data
}

extension DurableEnvelope: JSONWrittenEnvelope {
  func writeJSON(with encoder: JSONEncoder) throws -> Data {
    let value = try encoder.encode(self.value)
    // Sorted, "value" comes before "version".
    let head = #"{"value":"#.utf8
    let tail = #","version":"#.utf8
    let version = String(self.version).utf8
    var data = Data(capacity: head.count + value.count + tail.count + version.count + 1)
    data.append(contentsOf: head)
    data.append(value)
    data.append(contentsOf: tail)
    data.append(contentsOf: version)
    data.append(UInt8(ascii: "}"))
    return data
  }
}
