//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Runs a policy from a loop of your own, on one thread, with no timer, no
/// lock and no task: you say what time it is with each input, ask it when it
/// next needs to wake, and it hands you each event as the policy emits it,
/// with the instant it was due.
///
/// Use it where the loop already exists: an event loop that waits on a file
/// descriptor until ``deadline``, or a replay of a log whose lines carry their
/// time. `pace`'s stream and replay modes and the marble runner drive their
/// policies with it, so they cannot disagree about order:
///
/// - Timers due before an input fire before it, each at its own deadline.
/// - Inputs at one instant come first, then the timers due at that instant
///   (``fireTimers(through:_:)``).
/// - After the output's finish or failure, nothing more is emitted.
///
/// ```swift
/// var runner = PacingRunner(DebounceStateMachine<String, ContinuousClock.Instant>(interval: .milliseconds(300)))
/// let now = ContinuousClock.now
/// runner.send("a", at: now) { event, instant in print(event, instant) }
/// // Later, when `runner.deadline` has passed:
/// runner.fireTimers(through: ContinuousClock.now) { event, _ in print(event) }  // .value("a")
/// ```
public struct PacingRunner<Machine: PacingStateMachine> {
  public typealias Value = Machine.Value
  public typealias Instant = Machine.Instant

  /// The policy, as the events so far have left it.
  public var machine: Machine { policy }
  /// Whether the output has finished or failed; later inputs are ignored.
  public var isTerminated: Bool { terminated }

  @usableFromInline var policy: Machine
  @usableFromInline var terminated = false
  /// A deadline that fired with no effect (the policy neither emitted nor
  /// moved it): it is not fired again before the next input, so a faulty
  /// policy cannot keep a loop busy.
  @usableFromInline var stalledDeadline: Instant?

  /// Creates a runner for `machine`; call ``start(at:_:)`` before the first input.
  public init(_ machine: Machine) {
    policy = machine
  }

  /// When the runner next needs ``fireTimers(through:_:)``: nil when nothing
  /// is due, ever, without a new input.
  @inlinable
  public var deadline: Instant? {
    guard !terminated, let deadline = policy.deadline, deadline != stalledDeadline else { return nil }
    return deadline
  }

  /// Starts the policy at `now` (a `take(0)` finishes here).
  @inlinable
  public mutating func start(at now: Instant, _ emit: (PacingEvent<Value>, Instant) -> Void) {
    record(policy.started(at: now), at: now, emit)
  }

  /// Hands the policy a value that arrived at `now`, after firing the timers
  /// due before it.
  @inlinable
  public mutating func send(_ value: Value, at now: Instant, _ emit: (PacingEvent<Value>, Instant) -> Void) {
    fireTimers(before: now, emit)
    guard !terminated else { return }
    stalledDeadline = nil
    record(policy.valueReceived(value, at: now), at: now, emit)
  }

  /// Ends the input at `now`, after firing the timers due before it: the
  /// policy's finish rules apply (a debounce flushes at once, a throttle
  /// keeps its rate).
  @inlinable
  public mutating func finish(at now: Instant, _ emit: (PacingEvent<Value>, Instant) -> Void) {
    fireTimers(before: now, emit)
    guard !terminated else { return }
    stalledDeadline = nil
    record(policy.upstreamFinished(at: now), at: now, emit)
  }

  /// Fails the input at `now`, after firing the timers due before it.
  @inlinable
  public mutating func fail(at now: Instant, _ emit: (PacingEvent<Value>, Instant) -> Void) {
    fireTimers(before: now, emit)
    guard !terminated else { return }
    stalledDeadline = nil
    record(policy.upstreamFailed(at: now), at: now, emit)
  }

  /// Fires, in order and each at its own deadline, the timers due strictly
  /// before `now`: what happened while the loop waited for an input at `now`.
  @inlinable
  public mutating func fireTimers(before now: Instant, _ emit: (PacingEvent<Value>, Instant) -> Void) {
    while let deadline, deadline < now {
      fire(at: deadline, emit)
    }
  }

  /// Fires, in order and each at its own deadline, the timers due at or
  /// before `now`: call it after the inputs of `now`, or when the loop wakes
  /// at the ``deadline``.
  @inlinable
  public mutating func fireTimers(through now: Instant, _ emit: (PacingEvent<Value>, Instant) -> Void) {
    while let deadline, deadline <= now {
      fire(at: deadline, emit)
    }
  }

  /// Fires every timer until none is pending: time goes on with no more
  /// input, and whatever the policy still holds comes out when it is due.
  @inlinable
  public mutating func fireAllTimers(_ emit: (PacingEvent<Value>, Instant) -> Void) {
    while let deadline {
      fire(at: deadline, emit)
    }
  }

  @inlinable
  mutating func fire(at deadline: Instant, _ emit: (PacingEvent<Value>, Instant) -> Void) {
    let action = policy.timerFired(at: deadline)
    if action.isEmpty, policy.deadline == deadline { stalledDeadline = deadline }
    record(action, at: deadline, emit)
  }

  @inlinable
  mutating func record(
    _ action: consuming PacingAction<Value>, at instant: Instant, _ emit: (PacingEvent<Value>, Instant) -> Void
  ) {
    guard !terminated else { return }
    // The action's parts in order, moved out of it: an iterator would copy
    // the action, and a copy of a value that holds a reference costs an
    // atomic increment and decrement.
    if let head = action.head.take() {
      emit(.value(head), instant)
      if !action.tail.isEmpty {
        for value in action.tail { emit(.value(value), instant) }
      }
    }
    switch action.ending {
    case .none: return
    case .finish: emit(.finish, instant)
    case .failure: emit(.failure, instant)
    }
    terminated = true
  }
}

extension PacingRunner {
  /// Hands a pipeline `values`, which arrived together at `now`, in order,
  /// after firing the timers due before it: what sending them one by one
  /// with ``send(_:at:_:)`` does, but stage by stage, each stage taking the
  /// whole batch with its policy in hand, which is several times faster for
  /// a stream's lines. (A pipeline with a stage of one's own takes them one
  /// by one.)
  ///
  ///     var runner = PacingRunner(PacingPipeline<String, ContinuousClock.Instant>(stages: [.distinct()]))
  ///     runner.send(contentsOf: ["a", "a", "b"], at: .now) { event, _ in print(event) }  // a, b
  @inlinable
  public mutating func send<V, I>(contentsOf values: [V], at now: I, _ emit: (PacingEvent<V>, I) -> Void)
  where Machine == PacingPipeline<V, I> {
    guard policy.takesBatches else {
      // A stage of one's own might set a deadline before `now`, due
      // between two of the values: one by one, timers fire between them.
      sendOneByOne(values, at: now, emit)
      return
    }
    fireTimers(before: now, emit)
    guard !terminated, !values.isEmpty else { return }
    stalledDeadline = nil
    var output: [V] = []
    output.reserveCapacity(values.count)
    let ending = policy.valuesReceived(values, at: now, into: &output)
    for index in output.indices { emit(.value(output[index]), now) }
    switch ending {
    case .none: return
    case .finish: emit(.finish, now)
    case .failure: emit(.failure, now)
    }
    terminated = true
  }

  /// `send(contentsOf:at:_:)` for a pipeline with a stage of one's own; out
  /// of line, so that the batch path stays small enough to be inlined whole.
  @inlinable @inline(never)
  mutating func sendOneByOne<V, I>(_ values: [V], at now: I, _ emit: (PacingEvent<V>, I) -> Void)
  where Machine == PacingPipeline<V, I> {
    for value in values { send(value, at: now, emit) }
  }
}
