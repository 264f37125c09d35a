//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A chain of pacing stages, each feeding the next, run by the time rules of
/// the timing contract; itself a ``PacingStateMachine``, so every driver runs it.
///
/// Within one instant, every stage first handles its input events in order,
/// then fires its timers that are due at or before that instant; what it emits
/// becomes the next stage's input at the same instant. As a machine, the
/// pipeline passes each event through the stages at once, and fires the
/// stages' due timers, stage by stage, when its driver calls
/// ``timerFired(at:)`` for its ``deadline`` (its stages' earliest). A driver
/// that handles an instant's inputs before its timers, as every Pace driver
/// does, so runs the rule above: `[ab]` through `debounce 0` gives `b`.
///
///     var pipeline = PacingPipeline<String, ContinuousClock.Instant>([
///       DistinctStateMachine(),
///       DebounceStateMachine(interval: .milliseconds(300)),
///     ])
///     let start = ContinuousClock.now
///     _ = pipeline.valueReceived("a", at: start)                     // .none
///     _ = pipeline.valueReceived("a", at: start)                     // .none: distinct drops it
///     pipeline.deadline                                               // start + 300 ms
///     _ = pipeline.timerFired(at: start + .milliseconds(300))         // .emit("a")
///
/// To chain stages for a closure pacer or an `AsyncSequence`, write them as
/// ``PacingStage`` values: `Pacer(stages: .distinct(), .debounce(for: .milliseconds(300)))`.
///
/// Once an event that ends the sequence has come out, the pipeline is
/// ``isTerminated`` and ignores everything after.
public struct PacingPipeline<Value, Instant: InstantProtocol>: Sendable {
  /// A stage of the pipeline.
  public typealias Stage = any PacingStateMachine<Value, Instant> & Sendable

  @usableFromInline var stages: [PipelineStage<Value, Instant>]

  /// Whether the pipeline has delivered its finish or failure.
  public var isTerminated: Bool { terminated }
  @usableFromInline var terminated = false

  /// Creates a pipeline that runs `stages` left to right. With no stages it
  /// passes every event through unchanged.
  public init(_ stages: [Stage]) {
    self.stages = stages.map(PipelineStage.init)
  }

  /// Runs `inputs` through the stages at `now`. Each stage first starts (when
  /// `starting`), then handles its inputs and the user's `request` (a flush
  /// after the inputs, so that what upstream flushed is flushed too; a cancel
  /// before them, so that what upstream released, such as a throttle's
  /// held-back finish, cannot flush what this stage held back), then fires its
  /// due timers (when `firing`); what it emits is the next stage's input.
  @inlinable
  mutating func run<Request: PipelineStageEvent<Value, Instant>>(
    _ inputs: PacingAction<Value>, at now: Instant, starting: Bool = false, firing: Bool = false,
    request: Request?, requestFirst: Bool = false
  ) -> PacingAction<Value> {
    typealias Events = PipelineStageEvents<Value, Instant>
    guard !terminated else { return .none }
    var events = inputs
    for index in stages.indices {
      var output = PacingAction<Value>.none
      if starting { output.append(contentsOf: stages[index].apply(Events.Signal(.started, at: now))) }
      if let request, requestFirst { output.append(contentsOf: stages[index].apply(request)) }
      for event in events where !output.terminates {
        switch event {
        case .value(let value):
          output.append(contentsOf: stages[index].apply(Events.ValueReceived(value: value, now: now)))
        case .finish: output.append(contentsOf: stages[index].apply(Events.Signal(.upstreamFinished, at: now)))
        case .failure: output.append(contentsOf: stages[index].apply(Events.Signal(.upstreamFailed, at: now)))
        }
      }
      if let request, !requestFirst, !output.terminates { output.append(contentsOf: stages[index].apply(request)) }
      while firing, !output.terminates, let deadline = stages[index].deadline, deadline <= now {
        let action = stages[index].apply(Events.Signal(.timerFired, at: now))
        output.append(contentsOf: action)
        // A stage that neither acts nor moves its deadline would loop forever.
        if action.isEmpty, stages[index].deadline == deadline { break }
      }
      events = output
    }
    if events.terminates { terminated = true }
    return events
  }

  /// Runs `inputs` with no request of the user's.
  @inlinable
  mutating func run(
    _ inputs: PacingAction<Value>, at now: Instant, starting: Bool = false, firing: Bool = false
  ) -> PacingAction<Value> {
    run(inputs, at: now, starting: starting, firing: firing, request: PipelineStageEvents<Value, Instant>.Signal?.none)
  }
}

extension PacingPipeline: PacingStateMachine {
  /// The earliest instant at which a stage needs its timer, or `nil`.
  @inlinable
  public var deadline: Instant? {
    guard !terminated else { return nil }
    var earliest: Instant?
    for index in stages.indices {
      if let deadline = stages[index].deadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
    }
    return earliest
  }

  /// Whether a stage holds a value back.
  @inlinable
  public var hasPendingValue: Bool {
    !terminated && stages.contains { $0.hasPendingValue }
  }

  /// Tells every stage that the input starts at `now`; returns what comes out
  /// (for instance the finish of `take 0`).
  @inlinable
  public mutating func started(at now: Instant) -> PacingAction<Value> {
    run(.none, at: now, starting: true)
  }

  /// Runs `value` through the stages at `now`; their timers fire at ``timerFired(at:)``.
  @inlinable
  public mutating func valueReceived(_ value: Value, at now: Instant) -> PacingAction<Value> {
    run(.emit(value), at: now)
  }

  /// Fires the stages' timers due at or before `now`.
  @inlinable
  public mutating func timerFired(at now: Instant) -> PacingAction<Value> {
    run(.none, at: now, firing: true)
  }

  /// Runs the finish through the stages at `now`.
  @inlinable
  public mutating func upstreamFinished(at now: Instant) -> PacingAction<Value> {
    run(.finish, at: now)
  }

  /// Runs the failure through the stages at `now`.
  @inlinable
  public mutating func upstreamFailed(at now: Instant) -> PacingAction<Value> {
    run(.fail, at: now)
  }

  /// Flushes every stage, left to right; a flushed value flows through the
  /// stages after its own.
  @inlinable
  public mutating func flushRequested(at now: Instant) -> PacingAction<Value> {
    run(.none, at: now, request: PipelineStageEvents<Value, Instant>.Signal(.flushRequested, at: now))
  }

  /// Drops what every stage holds back; what a cancel releases upstream (a
  /// throttle's held-back finish) passes through the stages after it, which
  /// have already dropped theirs.
  @inlinable
  public mutating func cancelled(at now: Instant) -> PacingAction<Value> {
    run(.none, at: now, request: PipelineStageEvents<Value, Instant>.Signal(.cancelled, at: now), requestFirst: true)
  }
}
