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
  mutating func apply(
    _ event: some PipelineStageEvent<Value, Instant>, deadline: inout Instant?
  ) -> PacingAction<Value> {
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

  /// Hands the policy `values`, which arrived together at `now`, one after
  /// the other, and appends the values it emits to `output`; stops at an
  /// ending, and returns it. One switch for them all, then specialised code.
  /// Not for `.other` stages, whose deadline could fall before `now` between
  /// two of the values (see `PacingPipeline.valuesReceived`).
  @inlinable
  mutating func valuesReceived(
    _ values: [Value], at now: Instant, deadline: inout Instant?, into output: inout [Value]
  ) -> PacingAction<Value>.Ending {
    switch consume self {
    case .debounce(var machine):
      defer {
        deadline = machine.deadline
        self = .debounce(machine)
      }
      return Self.receive(values, at: now, by: &machine, into: &output)
    case .throttle(var machine):
      defer {
        deadline = machine.deadline
        self = .throttle(machine)
      }
      return Self.receive(values, at: now, by: &machine, into: &output)
    case .distinct(var machine):
      defer { self = .distinct(machine) }
      return Self.receive(values, at: now, by: &machine, into: &output)
    case .filter(var machine):
      defer { self = .filter(machine) }
      return Self.receive(values, at: now, by: &machine, into: &output)
    case .skip(var machine):
      defer { self = .skip(machine) }
      return Self.receive(values, at: now, by: &machine, into: &output)
    case .take(var machine):
      defer { self = .take(machine) }
      return Self.receive(values, at: now, by: &machine, into: &output)
    case .other(let machine):
      self = .other(machine)
      preconditionFailure("valuesReceived is for Pace's own policies")
    }
  }

  @inlinable
  static func receive<Machine: PacingStateMachine>(
    _ values: [Value], at now: Instant, by machine: inout Machine, into output: inout [Value]
  ) -> PacingAction<Value>.Ending where Machine.Value == Value, Machine.Instant == Instant {
    // By index, so that each value is lent to the policy, not copied out.
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

  /// Whether a new stage would behave the same: a filter always; distinct,
  /// skip and take remember what they saw, so never (a key's distinct is
  /// its memory).
  @inlinable
  var isDiscardable: Bool {
    switch self {
    case .debounce(let machine): machine.isDiscardable
    case .throttle(let machine): machine.isDiscardable
    case .filter: true
    case .distinct, .skip, .take: false
    case .other(let machine): machine.isDiscardable
    }
  }
}

/// Something that happens to a stage, applied to its policy whatever its type.
@usableFromInline
protocol PipelineStageEvent<Value, Instant> {
  associatedtype Value
  associatedtype Instant: InstantProtocol
  func apply<Machine: PacingStateMachine>(to machine: inout Machine) -> PacingAction<Value>
  where Machine.Value == Value, Machine.Instant == Instant
}

/// The events of ``PacingStateMachine``: a value, or a signal at an instant.
@usableFromInline
enum PipelineStageEvents<Value, Instant: InstantProtocol> {
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
