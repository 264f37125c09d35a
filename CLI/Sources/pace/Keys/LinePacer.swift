//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace

/// The stages that pace a stream of lines, for the stream and replay loops:
/// one ``PacingRunner`` for every line, or with `--by` a
/// ``KeyedPacingRunner``, a run of the stages per key. The order of events
/// is the runners': each key's is what a `pace` of its own would give, and
/// across keys the earlier instant comes first (at one instant, keys whose
/// deadlines were set earlier first).
///
/// What comes out is each emitted value with its key (nil without `--by`,
/// or for the lines that match no key) and its instant.
struct LinePacer<Value: Sendable, Instant: InstantProtocol> {
  typealias Pipeline = PacingPipeline<Value, Instant>
  typealias Emit = (Value, _ key: String?, Instant) -> Void

  // Two optionals rather than an enum: a runner in an enum's payload is
  // copied when taken out to be changed; through an optional it changes in place.
  private var runner: PacingRunner<Pipeline>?
  private var keyed: KeyedPacingRunner<String?, Pipeline>?
  private let key: (Value) -> String?

  /// The stages in `pipeline`, per key of `pattern` in `text(value)` if given.
  init(_ pipeline: Pipeline, by pattern: KeyPattern?, text: @escaping (Value) -> String) {
    if let pattern {
      keyed = KeyedPacingRunner(pipeline)
      key = { pattern.key(in: text($0)) }
    } else {
      runner = PacingRunner(pipeline)
      key = { _ in nil }
    }
  }

  /// When the loop next needs ``fireTimers(through:_:)``.
  var deadline: Instant? {
    runner?.deadline ?? keyed?.deadline
  }

  /// Whether nothing more can come out: the stages finished (per key: the
  /// input did, and every key after it).
  var isTerminated: Bool {
    runner?.isTerminated ?? keyed!.isTerminated
  }

  /// Starts the stages at `now` (each key starts at its first line).
  mutating func start(at now: Instant, _ emit: Emit) {
    runner?.start(at: now) { event, instant in Self.pass(event, nil, instant, emit) }
  }

  /// Lines that arrived together at `now`, in order.
  mutating func send(contentsOf values: [Value], at now: Instant, _ emit: Emit) {
    if runner != nil {
      runner!.send(contentsOf: values, at: now) { event, instant in Self.pass(event, nil, instant, emit) }
      return
    }
    for value in values { send(value, at: now, emit) }
  }

  /// A line that arrived at `now`.
  mutating func send(_ value: Value, at now: Instant, _ emit: Emit) {
    if runner != nil {
      runner!.send(value, at: now) { event, instant in Self.pass(event, nil, instant, emit) }
    } else {
      keyed!.send(value, for: key(value), at: now) { key, event, instant in Self.pass(event, key, instant, emit) }
    }
  }

  /// The end of the input, for every key.
  mutating func finish(at now: Instant, _ emit: Emit) {
    runner?.finish(at: now) { event, instant in Self.pass(event, nil, instant, emit) }
    keyed?.finish(at: now) { key, event, instant in Self.pass(event, key, instant, emit) }
  }

  /// Fires the timers due at or before `now`.
  mutating func fireTimers(through now: Instant, _ emit: Emit) {
    runner?.fireTimers(through: now) { event, instant in Self.pass(event, nil, instant, emit) }
    keyed?.fireTimers(through: now) { key, event, instant in Self.pass(event, key, instant, emit) }
  }

  /// Lets time run on until nothing is pending.
  mutating func fireAllTimers(_ emit: Emit) {
    runner?.fireAllTimers { event, instant in Self.pass(event, nil, instant, emit) }
    keyed?.fireAllTimers { key, event, instant in Self.pass(event, key, instant, emit) }
  }

  /// Passes on a value; a finish or failure shows in ``isTerminated``.
  private static func pass(_ event: PacingEvent<Value>, _ key: String?, _ instant: Instant, _ emit: Emit) {
    if case .value(let value) = event { emit(value, key, instant) }
  }
}
