//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The debounce policy: emits once things settle, with an optional leading edge
/// and an optional maximum wait.
///
/// A *burst* starts at the first value while idle and lasts until `interval`
/// passes with no value. With `leading`, the value that starts a burst is emitted
/// at once. With `trailing` (the default), the latest value is emitted when the
/// burst ends, unless the leading edge already emitted it. With `maxWait`, a
/// pending value is emitted no later than `maxWait` after the burst started or
/// after the burst's previous max-wait emission.
///
///     input:       abcd----e---f-g----|
///     debounce 3:  ------d----e-----g-|
///
///     input:                     a-b-c------d
///     debounce 3, leading only:  a----------d
///
/// An input at exactly the deadline counts as inside the burst: it moves the
/// deadline. When the input finishes, a pending trailing value is emitted at once,
/// then the finish; when it fails, a pending value is dropped.
///
/// The machine never reads a clock: its driver passes the instant of every event.
/// Options are a ``DebounceEdges`` value, so every debounce that can be
/// written can run.
public struct DebounceStateMachine<Value, Instant: InstantProtocol> {
  // The stored properties are in this order so that the two flags share the
  // optional's tail padding: a pacer holds one machine, and a program may hold
  // a pacer per document or per user.

  /// The quiet period that ends a burst.
  public let interval: Instant.Duration
  /// The longest a pending value waits during a burst, raised to `interval`
  /// when smaller; `nil` for no limit.
  public let maxWait: Instant.Duration?
  /// Whether the value that starts a burst is emitted at once.
  public let leading: Bool
  /// Whether the latest value is emitted when the burst ends.
  public let trailing: Bool

  @usableFromInline
  enum State {
    /// No burst is going on.
    case idle
    /// A burst is going on. `pending` is the value the trailing edge would emit;
    /// the burst ends at `quietDeadline`; a max-wait emission is due at `maxWaitDeadline`.
    case bursting(pending: Value?, quietDeadline: Instant, maxWaitDeadline: Instant?)
    /// The input finished or failed; every later event is ignored.
    case finished
  }

  @usableFromInline
  var state: State = .idle

  /// Creates a debounce policy.
  ///
  ///     let search = DebounceStateMachine<String, ContinuousClock.Instant>(interval: .milliseconds(300))
  ///     let save = DebounceStateMachine<String, ContinuousClock.Instant>(
  ///       interval: .seconds(1), edges: .trailing(maxWait: .seconds(10)))
  ///
  /// - Parameters:
  ///   - interval: The quiet period that ends a burst. Zero never delays; a
  ///     negative interval counts as zero.
  ///   - edges: Which values of a burst are emitted, and the maximum wait of a
  ///     trailing value; ``DebounceEdges/trailing(maxWait:)`` with none by default.
  public init(interval: Instant.Duration, edges: DebounceEdges<Instant.Duration> = .default) {
    let interval = Swift.max(interval, .zero)
    self.interval = interval
    self.leading = edges.leading
    self.trailing = edges.trailing
    self.maxWait = edges.maxWait.map { Swift.max($0, interval) }
  }

  /// The edges this debounce emits, with its maximum wait as raised to the interval.
  public var edges: DebounceEdges<Instant.Duration> {
    switch (leading, trailing) {
    case (true, true): .both(maxWait: maxWait)
    case (true, false): .leading
    default: .trailing(maxWait: maxWait)
    }
  }

  /// Whether a value waits for the trailing edge.
  @inlinable
  public var hasPendingValue: Bool {
    switch state {
    case .bursting(let pending, _, _): pending != nil
    case .idle, .finished: false
    }
  }

  /// Whether no burst goes on: a new machine would do the same.
  @inlinable
  public var isDiscardable: Bool {
    if case .idle = state { return true }
    return false
  }

  /// The instant at which the burst ends or a max-wait emission is due.
  @inlinable
  public var deadline: Instant? {
    switch state {
    case .bursting(_, let quietDeadline, let maxWaitDeadline):
      guard let maxWaitDeadline, maxWaitDeadline < quietDeadline else { return quietDeadline }
      return maxWaitDeadline
    case .idle, .finished:
      return nil
    }
  }
}

extension DebounceStateMachine: PacingStateMachine {
  /// A value arrives: it starts a burst or becomes the burst's pending value, and
  /// the burst's end moves to `now + interval`.
  @inlinable
  public mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    switch state {
    case .idle:
      // The value starts a burst.
      let maxWaitDeadline = maxWait.map { now.advanced(by: $0) }
      if leading {
        state = .bursting(pending: nil, quietDeadline: now.advanced(by: interval), maxWaitDeadline: maxWaitDeadline)
        return .emit(value)
      }
      state = .bursting(pending: value, quietDeadline: now.advanced(by: interval), maxWaitDeadline: maxWaitDeadline)
      return .none
    case .bursting(_, _, let maxWaitDeadline):
      // The burst goes on: this value replaces the pending one and moves the end.
      state = .bursting(
        pending: trailing ? value : nil, quietDeadline: now.advanced(by: interval), maxWaitDeadline: maxWaitDeadline)
      return .none
    case .finished:
      // A value after the finish: ignored.
      return .none
    }
  }

  /// The timer fired: the burst ends (emitting the trailing value), or the
  /// max-wait emission is due, or it is too early and nothing happens.
  @inlinable
  public mutating func timerFired(at now: Instant) -> PacingAction<Value> {
    switch state {
    case .bursting(let pending, let quietDeadline, let maxWaitDeadline):
      if quietDeadline <= now {
        // The quiet period passed: the burst ends.
        state = .idle
        return pending.map { .emit($0) } ?? .none
      }
      if let maxWaitDeadline, maxWaitDeadline <= now, let maxWait {
        // The burst goes on, but the pending value has waited long enough.
        state = .bursting(pending: nil, quietDeadline: quietDeadline, maxWaitDeadline: now.advanced(by: maxWait))
        return pending.map { .emit($0) } ?? .none
      }
      // An early timer: a later value moved the deadline.
      return .none
    case .idle, .finished:
      // A timer left over from a burst that already ended.
      return .none
    }
  }

  /// The input finished: a pending trailing value is emitted, then the finish.
  @inlinable
  public mutating func upstreamFinished(at now: Instant) -> PacingAction<Value> {
    switch state {
    case .bursting(let pending, _, _):
      // Nothing pending may be lost.
      state = .finished
      return pending.map { .emitAndFinish($0) } ?? .finish
    case .idle:
      // Nothing pending.
      state = .finished
      return .finish
    case .finished:
      // Already terminated.
      return .none
    }
  }

  /// The input failed: a pending value is dropped and the failure passes at once.
  @inlinable
  public mutating func upstreamFailed(at now: Instant) -> PacingAction<Value> {
    switch state {
    case .bursting, .idle:
      state = .finished
      return .fail
    case .finished:
      // Already terminated.
      return .none
    }
  }
}

extension DebounceStateMachine {
  /// Emits the pending value now and ends the burst, as if the quiet period had
  /// passed. The next value starts a new burst (and is emitted at once with `leading`).
  @inlinable
  public mutating func flushRequested(at now: Instant) -> PacingAction<Value> {
    switch state {
    case .bursting(let pending, _, _):
      // The burst ends early.
      state = .idle
      return pending.map { .emit($0) } ?? .none
    case .idle, .finished:
      // Nothing to flush.
      return .none
    }
  }

  /// Drops the pending value and ends the burst; nothing is emitted. The answer
  /// is always ``PacingAction/none``; it is an action for symmetry with the
  /// throttle, whose held-back finish a cancel releases.
  @inlinable
  public mutating func cancelled(at now: Instant) -> PacingAction<Value> {
    switch state {
    case .bursting:
      // The burst is abandoned.
      state = .idle
    case .idle, .finished:
      // Nothing to cancel.
      break
    }
    return .none
  }
}

extension DebounceStateMachine: Sendable where Value: Sendable, Instant: Sendable {}
extension DebounceStateMachine.State: Sendable where Value: Sendable, Instant: Sendable {}

extension DebounceStateMachine.State: Codable where Value: Codable, Instant: Codable {}

extension DebounceStateMachine: StorablePacingStateMachine where Value: Codable, Instant: Codable {
  /// Writes the burst in progress, if any: its pending value and deadlines.
  public func encodeState(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(state)
  }

  /// Takes the burst that a debounce with the same options wrote.
  public mutating func decodeState(from decoder: any Decoder) throws {
    state = try decoder.singleValueContainer().decode(State.self)
  }
}
