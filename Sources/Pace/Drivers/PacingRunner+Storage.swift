//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

extension PacingRunner where Machine: StorablePacingStateMachine, Machine.Instant: Codable {
  private enum CodingKeys: String, CodingKey {
    case policy, terminated, stalledDeadline
  }

  /// Writes what the events so far have left: the policy's state, whether
  /// the output has ended, and a deadline that fired with no effect.
  ///
  ///     var runner = PacingRunner(DebounceStateMachine<String, DriverInstant>(interval: .seconds(1)))
  ///     runner.start(at: DriverInstant(nanoseconds: 0)) { _, _ in }
  ///     runner.send("draft", at: DriverInstant(nanoseconds: 0)) { _, _ in }
  ///     // runner.encodeState(to:) with any encoder; decodeState(from:) into a
  ///     // runner of a debounce with the same options goes on from the draft.
  public func encodeState(to encoder: any Encoder) throws {
    var container = encoder.container(keyedBy: CodingKeys.self)
    try policy.encodeState(to: container.superEncoder(forKey: .policy))
    if terminated { try container.encode(true, forKey: .terminated) }
    try container.encodeIfPresent(stalledDeadline, forKey: .stalledDeadline)
  }

  /// Takes the state that ``encodeState(to:)`` wrote, from a runner of a
  /// policy with the same options.
  ///
  /// - Throws: `DecodingError` when the data is not such a state.
  public mutating func decodeState(from decoder: any Decoder) throws {
    let container = try decoder.container(keyedBy: CodingKeys.self)
    try policy.decodeState(from: container.superDecoder(forKey: .policy))
    terminated = try container.decodeIfPresent(Bool.self, forKey: .terminated) ?? false
    stalledDeadline = try container.decodeIfPresent(Instant.self, forKey: .stalledDeadline)
  }
}
