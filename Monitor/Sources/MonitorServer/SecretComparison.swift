/// Whether `presented` is the monitor's `secret`, compared in time that does
/// not depend on where the two first differ: every byte of the secret is
/// compared, whatever the presented string holds, so that timing the answer
/// tells nobody how many leading characters of a guess were right.
///
/// The loop runs over the secret's length (fixed for a run, and public: 32
/// hexadecimal digits) whatever the presented length; a presented string of
/// another length is folded into the difference rather than answered early.
/// Only a missing secret is answered at once: its absence is no secret.
///
/// ```swift
/// secretMatches(request.uri.queryParameters["secret"].map(String.init), secret)
/// ```
func secretMatches(_ presented: String?, _ secret: String) -> Bool {
  guard let presented else { return false }
  let given = Array(presented.utf8)
  let expected = Array(secret.utf8)
  // Non-zero when the lengths differ; kept apart from the bytes so that a
  // prefix of the secret (or the secret with bytes appended) never matches.
  var difference = UInt(bitPattern: given.count ^ expected.count)
  for index in expected.indices {
    // Past the end of the presented string, compare against the secret's
    // byte inverted: always different, in the same number of steps.
    let byte = index < given.count ? given[index] : ~expected[index]
    difference |= UInt(byte ^ expected[index])
  }
  return difference == 0
}
