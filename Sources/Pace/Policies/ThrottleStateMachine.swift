//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The throttle policy: emits at most once per interval, with a leading and a
/// trailing edge.
///
/// Idle, a value opens a window of `interval`; with `leading` (the default) it is
/// emitted at once. Values inside the window replace the pending one. When the
/// window ends and `trailing` (the default) has a pending value, it is emitted
/// and a new window opens then; otherwise the throttle goes idle. Emissions are
/// always at least `interval` apart, even when the input finishes.
///
///     input:       abcdefghijk|
///     throttle 3:  a--d--g--j--[k|]
///
/// An input at exactly the end of a window counts as inside it. When the input
/// finishes with a pending trailing value, the finish waits for the window to
/// end; with nothing pending it passes at once. A failure drops what is pending
/// and passes at once.
///
/// The machine never reads a clock: its driver passes the instant of every event.
public struct ThrottleStateMachine<Value, Instant: InstantProtocol> {
  /// The shortest time between two emissions.
  public let interval: Instant.Duration
  /// Whether a value that arrives while idle is emitted at once.
  public let leading: Bool
  /// Whether the latest value of a window is emitted when the window ends.
  public let trailing: Bool

  @usableFromInline
  enum State {
    /// No window is open.
    case idle
    /// A window is open until `end`; `pending` is the value its end would emit.
    case window(end: Instant, pending: Value?)
    /// The input finished while `pending` waited; it is emitted with the finish at `end`.
    case finishing(end: Instant, pending: Value)
    /// The input finished or failed; every later event is ignored.
    case finished
  }

  @usableFromInline
  var state: State = .idle

  /// Creates a throttle policy.
  ///
  ///     let progress = ThrottleStateMachine<Double, ContinuousClock.Instant>(interval: .milliseconds(100))
  ///     let taps = ThrottleStateMachine<Int, ContinuousClock.Instant>(interval: .seconds(1), edges: .leading)
  ///
  /// - Parameters:
  ///   - interval: The shortest time between two emissions. Zero never delays;
  ///     a negative interval counts as zero.
  ///   - edges: Which values are emitted; ``ThrottleEdges/both`` by default.
  public init(interval: Instant.Duration, edges: ThrottleEdges = .default) {
    self.interval = Swift.max(interval, .zero)
    self.leading = edges.leading
    self.trailing = edges.trailing
  }

  /// The edges this throttle emits.
  public var edges: ThrottleEdges {
    leading ? (trailing ? .both : .leading) : .trailing
  }

  /// Whether a value waits for the end of the window.
  @inlinable
  public var hasPendingValue: Bool {
    switch state {
    case .window(_, let pending): pending != nil
    case .finishing: true
    case .idle, .finished: false
    }
  }

  /// Whether no window is open: a new machine would do the same.
  @inlinable
  public var isDiscardable: Bool {
    if case .idle = state { return true }
    return false
  }

  /// The end of the open window.
  @inlinable
  public var deadline: Instant? {
    switch state {
    case .window(let end, _), .finishing(let end, _): end
    case .idle, .finished: nil
    }
  }
}

extension ThrottleStateMachine: PacingStateMachine {
  /// A value arrives: it opens a window (emitted at once with `leading`) or
  /// becomes the open window's pending value.
  @inlinable
  public mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    switch state {
    case .idle:
      // The value opens a window.
      if leading {
        state = .window(end: now.advanced(by: interval), pending: nil)
        return .emit(value)
      }
      state = .window(end: now.advanced(by: interval), pending: value)
      return .none
    case .window(let end, _):
      // Inside the window (its last instant included): the latest value waits.
      state = .window(end: end, pending: trailing ? value : nil)
      return .none
    case .finishing, .finished:
      // A value after the finish: ignored.
      return .none
    }
  }

  /// The timer fired: the window ends, emitting its pending value and opening a
  /// new window as of `now`, or it is too early and nothing happens.
  @inlinable
  public mutating func timerFired(at now: Instant) -> PacingAction<Value> {
    switch state {
    case .window(let end, let pending):
      guard end <= now else { return .none }  // An early timer.
      guard let pending else {
        // Nothing waited: the throttle rests.
        state = .idle
        return .none
      }
      // The trailing edge: emit, and keep the rate with a new window.
      state = .window(end: now.advanced(by: interval), pending: nil)
      return .emit(pending)
    case .finishing(let end, let pending):
      guard end <= now else { return .none }  // An early timer.
      // The window that held the finish back has ended.
      state = .finished
      return .emitAndFinish(pending)
    case .idle, .finished:
      // A timer left over from a window that already ended.
      return .none
    }
  }

  /// The input finished: with a pending value the finish waits for the window to
  /// end; otherwise it passes at once.
  @inlinable
  public mutating func upstreamFinished(at now: Instant) -> PacingAction<Value> {
    switch state {
    case .window(let end, let pending?):
      // The rate holds: the pending value and the finish wait for the window's end.
      state = .finishing(end: end, pending: pending)
      return .none
    case .window(_, nil), .idle:
      // Nothing pending.
      state = .finished
      return .finish
    case .finishing, .finished:
      // Already finishing or terminated.
      return .none
    }
  }

  /// The input failed: a pending value is dropped and the failure passes at once.
  @inlinable
  public mutating func upstreamFailed(at now: Instant) -> PacingAction<Value> {
    switch state {
    case .idle, .window:
      state = .finished
      return .fail
    case .finishing:
      // A failure after the finish cannot happen in a well-formed input; the finish stands.
      return .none
    case .finished:
      // Already terminated.
      return .none
    }
  }
}

extension ThrottleStateMachine {
  /// Emits the pending value now. The emission counts for the rate: a new window
  /// opens at `now`.
  @inlinable
  public mutating func flushRequested(at now: Instant) -> PacingAction<Value> {
    switch state {
    case .window(_, let pending?):
      // Emit early; the next emission is at least `interval` later.
      state = .window(end: now.advanced(by: interval), pending: nil)
      return .emit(pending)
    case .finishing(_, let pending):
      // The held-back finish goes out with its value.
      state = .finished
      return .emitAndFinish(pending)
    case .window(_, nil), .idle, .finished:
      // Nothing to flush.
      return .none
    }
  }

  /// Drops the pending value; nothing is emitted. An open window stays open, so
  /// the rate still holds after a cancel.
  @inlinable
  public mutating func cancelled(at now: Instant) -> PacingAction<Value> {
    switch state {
    case .window(let end, _):
      // The window keeps the rate; only its value is dropped.
      state = .window(end: end, pending: nil)
      return .none
    case .finishing:
      // The finish was held back only for the dropped value: it passes now.
      state = .finished
      return .finish
    case .idle, .finished:
      // Nothing to cancel.
      return .none
    }
  }
}

extension ThrottleStateMachine: Sendable where Value: Sendable, Instant: Sendable {}
extension ThrottleStateMachine.State: Sendable where Value: Sendable, Instant: Sendable {}

extension ThrottleStateMachine.State: Codable where Value: Codable, Instant: Codable {}

extension ThrottleStateMachine: StorablePacingStateMachine where Value: Codable, Instant: Codable {
  /// Writes the window in progress, if any: its end and pending value.
  public func encodeState(to encoder: any Encoder) throws {
    var container = encoder.singleValueContainer()
    try container.encode(state)
  }

  /// Takes the window that a throttle with the same options wrote.
  public mutating func decodeState(from decoder: any Decoder) throws {
    state = try decoder.singleValueContainer().decode(State.self)
  }
}
