//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// `--by REGEX`: what a line's key is. The key is the first capture group
/// of the first match, or the whole match when the pattern has no group (or
/// its first group took no part in the match); a line with no match has no
/// key, and the lines with none share one key of their own.
struct KeyPattern: @unchecked Sendable {
  // @unchecked Sendable: `Regex<AnyRegexOutput>` is an immutable value once
  // compiled, and matching only reads it; its type does not say so.
  let regex: Regex<AnyRegexOutput>
  /// The pattern as written.
  let source: String

  /// Compiles `text`; one that does not compile is a usage error.
  init(_ text: String) throws(UsageError) {
    source = text
    do {
      regex = try Regex(text)
    } catch {
      let reason = "\(error)".split(whereSeparator: \.isNewline).joined(separator: " ")
      throw UsageError("not a valid regular expression (\(reason))")
    }
  }

  /// The key of `text`, or nil when the pattern does not match it.
  func key(in text: String) -> String? {
    guard let match = try? regex.firstMatch(in: text) else { return nil }
    if match.output.count > 1, let group = match.output[1].substring { return String(group) }
    return match.output[0].substring.map(String.init) ?? ""
  }
}
