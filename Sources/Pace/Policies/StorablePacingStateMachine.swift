//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A policy whose state can be written out and read back, so that a driver
/// may keep it outside the process: `PacePostgres` keeps each key's state in
/// a database row, and any process of a fleet goes on from it.
///
/// Only the state is stored, never the options: they come from the code, as
/// the machine the driver was given. A state is read back into a copy of a
/// machine made with the same options, which then behaves exactly as the
/// machine that wrote it would have.
///
/// Every built-in policy conforms when its values and instants are `Codable`
/// (``DriverInstant`` is): debounce, throttle, distinct, filter, skip and
/// take, and a ``PacingPipeline`` of them (`.stages(…)`), whose stages of
/// your own must conform too. So does a ``PacingRunner`` of a storable
/// policy. A filter's or distinct's closure is an option, like an interval:
/// it comes from the code, never from the stored state. A policy of your own conforms by encoding what its
/// events have changed:
///
/// ```swift
/// struct EveryOther<Value: Codable>: StorablePacingStateMachine {
///   var skipNext = false
///   var deadline: DriverInstant? { nil }
///   mutating func valueReceived(_ value: Value, at now: DriverInstant) -> PacingAction<Value> {
///     defer { skipNext.toggle() }
///     return skipNext ? .none : .emit(value)
///   }
///   mutating func timerFired(at now: DriverInstant) -> PacingAction<Value> { .none }
///   mutating func upstreamFinished(at now: DriverInstant) -> PacingAction<Value> { .finish }
///   mutating func upstreamFailed(at now: DriverInstant) -> PacingAction<Value> { .fail }
///
///   func encodeState(to encoder: any Encoder) throws {
///     var container = encoder.singleValueContainer()
///     try container.encode(skipNext)
///   }
///   mutating func decodeState(from decoder: any Decoder) throws {
///     skipNext = try decoder.singleValueContainer().decode(Bool.self)
///   }
/// }
/// ```
public protocol StorablePacingStateMachine: PacingStateMachine {
  /// Writes the state the events so far have left, without the options.
  func encodeState(to encoder: any Encoder) throws

  /// Takes the state that ``encodeState(to:)`` wrote, from a machine made
  /// with the same options: the events it was told are then as good as told
  /// to this one.
  ///
  /// - Throws: `DecodingError` when the data is not such a state.
  mutating func decodeState(from decoder: any Decoder) throws
}
