//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A stage of a ``PacingPipeline``: one of Pace's own policies, held as
/// itself, or any other policy, held as an existential.
///
/// Holding the built-in policies by their type lets a caller's module
/// specialise the whole pipeline for its value and instant: a line through
/// `pace distinct` costs a comparison, not a trip through witness tables and
/// generic metadata.
@usableFromInline
enum PipelineStage<Value, Instant: InstantProtocol>: @unchecked Sendable {
  // @unchecked Sendable: the only way in is `init(_:)`, from a `Sendable`
  // existential; unwrapping it does not make its contents less so, though
  // the concrete types are `Sendable` only when `Value` is.
  case debounce(DebounceStateMachine<Value, Instant>)
  case throttle(ThrottleStateMachine<Value, Instant>)
  case distinct(DistinctStateMachine<Value, Instant>)
  case filter(FilterStateMachine<Value, Instant>)
  case skip(SkipStateMachine<Value, Instant>)
  case take(TakeStateMachine<Value, Instant>)
  case other(any PacingStateMachine<Value, Instant> & Sendable)

  /// `machine` as itself when it is one of Pace's policies.
  @usableFromInline
  init(_ machine: any PacingStateMachine<Value, Instant> & Sendable) {
    switch machine {
    case let machine as DebounceStateMachine<Value, Instant>: self = .debounce(machine)
    case let machine as ThrottleStateMachine<Value, Instant>: self = .throttle(machine)
    case let machine as DistinctStateMachine<Value, Instant>: self = .distinct(machine)
    case let machine as FilterStateMachine<Value, Instant>: self = .filter(machine)
    case let machine as SkipStateMachine<Value, Instant>: self = .skip(machine)
    case let machine as TakeStateMachine<Value, Instant>: self = .take(machine)
    default: self = .other(machine)
    }
  }

  /// Runs `event` on the policy in place: one switch, then specialised code.
  /// `deadline` becomes the policy's deadline after the event, read from the
  /// policy while it is out, so the caller never needs to copy the stage to
  /// ask for it.
  @inlinable
  mutating func apply<Event: PipelineStageEvent<Value, Instant>>(
    _ event: inout Event, deadline: inout Instant?
  ) -> Event.Result {
    // Moved out, not copied, and put back: no retain or release per event.
    switch consume self {
    case .debounce(var machine):
      defer {
        deadline = machine.deadline
        self = .debounce(machine)
      }
      return event.apply(to: &machine)
    case .throttle(var machine):
      defer {
        deadline = machine.deadline
        self = .throttle(machine)
      }
      return event.apply(to: &machine)
    case .distinct(var machine):
      defer { self = .distinct(machine) }
      return event.apply(to: &machine)
    case .filter(var machine):
      defer { self = .filter(machine) }
      return event.apply(to: &machine)
    case .skip(var machine):
      defer { self = .skip(machine) }
      return event.apply(to: &machine)
    case .take(var machine):
      defer { self = .take(machine) }
      return event.apply(to: &machine)
    case .other(var machine):
      defer {
        deadline = machine.deadline
        self = .other(machine)
      }
      return event.apply(to: &machine)
    }
  }

  /// ``apply(_:deadline:)`` for an event that keeps nothing of its own.
  @inlinable
  mutating func apply<Event: PipelineStageEvent<Value, Instant>>(
    _ event: Event, deadline: inout Instant?
  ) -> Event.Result {
    var event = event
    return apply(&event, deadline: &deadline)
  }

  /// Whether this is one of Pace's own policies.
  @inlinable
  var isBuiltIn: Bool {
    if case .other = self { false } else { true }
  }

  @inlinable
  var deadline: Instant? {
    switch self {
    case .debounce(let machine): machine.deadline
    case .throttle(let machine): machine.deadline
    case .distinct, .filter, .skip, .take: nil
    case .other(let machine): machine.deadline
    }
  }

  @inlinable
  var hasPendingValue: Bool {
    switch self {
    case .debounce(let machine): machine.hasPendingValue
    case .throttle(let machine): machine.hasPendingValue
    case .distinct, .filter, .skip, .take: false
    case .other(let machine): machine.hasPendingValue
    }
  }
}

/// Something that happens to a stage, applied to its policy whatever its type.
@usableFromInline
protocol PipelineStageEvent<Value, Instant> {
  associatedtype Value
  associatedtype Instant: InstantProtocol
  /// What the policy answers: its action, or for a batch how it ended.
  associatedtype Result
  mutating func apply<Machine: PacingStateMachine>(to machine: inout Machine) -> Result
  where Machine.Value == Value, Machine.Instant == Instant
}

/// The events of ``PacingStateMachine``: a value, a signal at an instant,
/// or the values of one instant in a batch.
@usableFromInline
enum PipelineStageEvents<Value, Instant: InstantProtocol> {
  /// Values that arrived together at `now`, handed to the policy one after
  /// the other, lent rather than copied; what it emits is appended to
  /// `output`. Stops at an ending, and answers it (`.none` when there is
  /// none).
  @usableFromInline
  struct ValuesReceived: PipelineStageEvent {
    @usableFromInline let values: [Value]
    @usableFromInline let now: Instant
    @usableFromInline var output: [Value]
    @inlinable init(values: [Value], now: Instant) {
      (self.values, self.now) = (values, now)
      output = []
      output.reserveCapacity(values.count)
    }

    @inlinable
    mutating func apply<Machine: PacingStateMachine>(to machine: inout Machine) -> PacingAction<Value>.Ending
    where Machine.Value == Value, Machine.Instant == Instant {
      for index in values.indices {
        var action = machine.valueReceived(values[index], at: now)
        if let head = action.head.take() {
          output.append(head)
          if !action.tail.isEmpty { output.append(contentsOf: action.tail) }
        }
        if action.ending != .none { return action.ending }
      }
      return .none
    }
  }

  @usableFromInline
  struct ValueReceived: PipelineStageEvent {
    @usableFromInline let value: Value
    @usableFromInline let now: Instant
    @inlinable init(value: Value, now: Instant) { (self.value, self.now) = (value, now) }
    @inlinable
    func apply<Machine: PacingStateMachine>(to machine: inout Machine) -> PacingAction<Value>
    where Machine.Value == Value, Machine.Instant == Instant { machine.valueReceived(value, at: now) }
  }

  @usableFromInline
  struct Signal: PipelineStageEvent {
    @usableFromInline
    enum Kind {
      case started, timerFired, upstreamFinished, upstreamFailed, flushRequested, cancelled
    }

    @usableFromInline let kind: Kind
    @usableFromInline let now: Instant
    @inlinable init(_ kind: Kind, at now: Instant) { (self.kind, self.now) = (kind, now) }

    @inlinable
    func apply<Machine: PacingStateMachine>(to machine: inout Machine) -> PacingAction<Value>
    where Machine.Value == Value, Machine.Instant == Instant {
      switch kind {
      case .started: machine.started(at: now)
      case .timerFired: machine.timerFired(at: now)
      case .upstreamFinished: machine.upstreamFinished(at: now)
      case .upstreamFailed: machine.upstreamFailed(at: now)
      case .flushRequested: machine.flushRequested(at: now)
      case .cancelled: machine.cancelled(at: now)
      }
    }
  }
}
