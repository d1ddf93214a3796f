import Testing

@testable import MonitorServer

/// The secret is compared byte for byte to the end, whatever differs first;
/// these hold that the comparison is still right.
@Suite struct SecretComparisonTests {
  static let secret = "3f1c0a9b8e7d6c5b4a3f2e1d0c9b8a7f"

  @Test(
    "only the secret itself matches: not a prefix, an extension, a byte off at either end, an empty or missing one",
    arguments: [
      ("3f1c0a9b8e7d6c5b4a3f2e1d0c9b8a7f", true),
      ("3f1c0a9b8e7d6c5b4a3f2e1d0c9b8a7", false),
      ("3f1c0a9b8e7d6c5b4a3f2e1d0c9b8a7f0", false),
      ("4f1c0a9b8e7d6c5b4a3f2e1d0c9b8a7f", false),
      ("3f1c0a9b8e7d6c5b4a3f2e1d0c9b8a7e", false),
      ("3F1C0A9B8E7D6C5B4A3F2E1D0C9B8A7F", false),
      ("", false),
      ("3f1c0a9b8e7d6c5b4a3f2e1d0c9b8a7f3f1c0a9b8e7d6c5b4a3f2e1d0c9b8a7f", false),
    ])
  func matchesOnlyTheSecret(presented: String, matches: Bool) {
    #expect(secretMatches(presented, Self.secret) == matches)
  }

  @Test("a monitor given an empty secret stops with a clear message: any empty one presented would match it")
  func emptySecretStops() async {
    let result = await #expect(processExitsWith: .failure, observing: [\.standardErrorContent]) {
      _ = MonitorServer(secret: "")
    }
    let message = String(decoding: result?.standardErrorContent ?? [], as: UTF8.self)
    #expect(message.contains("the monitor's secret is empty"), "stderr: \(message)")
  }

  @Test("a missing secret never matches; other secrets, empty or not ASCII, compare as their bytes")
  func edgeCases() {
    #expect(!secretMatches(nil, Self.secret))
    #expect(!secretMatches(nil, ""))
    #expect(secretMatches("", ""))
    #expect(!secretMatches("a", ""))
    #expect(secretMatches("clé", "clé"))
    #expect(!secretMatches("cle", "clé"))
    // Canonically equivalent strings are equal as Swift Strings, not as bytes: a
    // secret spelled with a combining accent is another secret.
    #expect("e\u{301}" == "\u{e9}")
    #expect(!secretMatches("cle\u{301}", "cl\u{e9}"))
    #expect(!secretMatches("cl\u{e9}", "cle\u{301}"))
    // A NUL byte ends nothing: what follows it is compared too.
    #expect(!secretMatches("clé\u{0}x", "clé\u{0}y"))
  }
}
