//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The search service `pace demo` talks to: a built-in word list, and a
/// latency for each request drawn from a seeded generator, so the same seed
/// gives the same session. Most answers take well under 200 ms, about one in
/// five takes over half a second: enough for answers to overtake each other.
struct DemoBackend: Sendable {
  let seed: UInt64

  /// How long the request numbered `number` (from 1, in the order sent) takes.
  func latency(ofRequest number: Int) -> Duration {
    var state = seed &+ UInt64(truncatingIfNeeded: number) &* 0x9E37_79B9_7F4A_7C15
    // SplitMix64: one well-mixed draw per request.
    state = (state ^ (state >> 30)) &* 0xBF58_476D_1CE4_E5B9
    state = (state ^ (state >> 27)) &* 0x94D0_49BB_1331_11EB
    state ^= state >> 31
    let uniform = Double(state >> 11) / Double(1 << 53)
    let milliseconds = 40 + 860 * uniform * uniform * uniform
    return .milliseconds(Int(milliseconds.rounded()))
  }

  /// The answer to `query`: the words that start with it, at most five.
  static func results(for query: String) -> [String] {
    let query = query.lowercased()
    return Array(words.filter { $0.hasPrefix(query) }.prefix(5))
  }

  /// What there is to find.
  static let words: [String] = """
    actor async await backpressure barrier batch buffer cache cancel cancellation channel checkpoint clock \
    closure coalesce combine concurrency concurrent concurrently condition conditional connection constant continuation \
    coroutine counter cursor deadline debounce debouncer delay deliver delivery distinct dispatch document \
    draft duration edge emit emitter error event executor fetch filter finish flush future generation group \
    handler heap idle input instant interval isolation isolated join key latency latest lease lock loop \
    main marble merge mutex network observable operator outbox pace pacer page pager paging pending pipeline \
    policy pool priority process producer query queue race refresh request restart result retry scheduler \
    search sequence serve server service session share signal single skip sleep socket state stream \
    suspend swift swiftly swim swimmer switch sword take task thread throttle throttler ticket timeout \
    timer token trailing transaction value view watch window worker
    """.split(separator: " ").map(String.init)
}
