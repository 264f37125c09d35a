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
///     var pipeline = PacingPipeline<String, ContinuousClock.Instant>(
///       stages: [.distinct(), .debounce(for: .milliseconds(300))])
///     let start = ContinuousClock.now
///     _ = pipeline.valueReceived("a", at: start)                     // .none
///     _ = pipeline.valueReceived("a", at: start)                     // .none: distinct drops it
///     pipeline.deadline                                               // start + 300 ms
///     _ = pipeline.timerFired(at: start + .milliseconds(300))         // .emit("a")
///
/// To chain stages for a closure pacer or an `AsyncSequence`, write them as
/// ``PacingStage`` values: `Pacer(.stages(.distinct(), .debounce(for: .milliseconds(300))))`.
/// To chain machines of your own, use ``init(machines:)``.
///
/// Once an event that ends the sequence has come out, the pipeline is
/// ``isTerminated`` and ignores everything after.
public struct PacingPipeline<Value, Instant: InstantProtocol>: Sendable {
  @usableFromInline var stages: [PipelineStage<Value, Instant>]
  /// Each stage's deadline, as its last event left it; a stage's deadline
  /// changes only when it handles an event, so reading these never touches
  /// (or copies) a stage.
  @usableFromInline var stageDeadlines: [Instant?]
  /// The earliest of `stageDeadlines`.
  @usableFromInline var earliestDeadline: Instant?
  /// Whether every stage is one of Pace's own policies, which may take the
  /// values of an instant as one batch. Kept, not computed on each batch: a
  /// key path in generic code is made anew at run time at each use.
  @usableFromInline let takesBatches: Bool

  /// Whether the pipeline has delivered its finish or failure.
  public var isTerminated: Bool { terminated }
  @usableFromInline var terminated = false

  /// Creates a pipeline that runs `machines` left to right, policies of your
  /// own among them. With no machines it passes every event through unchanged.
  ///
  ///     let pipeline = PacingPipeline<String, ContinuousClock.Instant>(machines: [
  ///       DistinctStateMachine(),
  ///       DebounceStateMachine(interval: .milliseconds(300)),
  ///     ])
  public init(machines: [any PacingStateMachine<Value, Instant> & Sendable]) {
    self.stages = machines.map(PipelineStage.init)
    takesBatches = self.stages.allSatisfy { $0.isBuiltIn }
    stageDeadlines = self.stages.map(\.deadline)
    earliestDeadline = Self.earliest(of: stageDeadlines)
  }

  @inlinable
  static func earliest(of deadlines: [Instant?]) -> Instant? {
    var earliest: Instant?
    for deadline in deadlines {
      if let deadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
    }
    return earliest
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
    request: Request?, requestFirst: Bool = false, from firstStage: Int = 0
  ) -> PacingAction<Value> {
    typealias Events = PipelineStageEvents<Value, Instant>
    guard !terminated else { return .none }
    var events = inputs
    var deadlinesChanged = false
    for index in firstStage..<stages.endIndex {
      let previousDeadline = stageDeadlines[index]
      var stageDeadline = previousDeadline
      var output = PacingAction<Value>.none
      if starting {
        output.append(contentsOf: stages[index].apply(Events.Signal(.started, at: now), deadline: &stageDeadline))
      }
      if let request, requestFirst {
        output.append(contentsOf: stages[index].apply(request, deadline: &stageDeadline))
      }
      for event in events where !output.terminates {
        switch event {
        case .value(let value):
          output.append(
            contentsOf: stages[index].apply(Events.ValueReceived(value: value, now: now), deadline: &stageDeadline))
        case .finish:
          output.append(
            contentsOf: stages[index].apply(Events.Signal(.upstreamFinished, at: now), deadline: &stageDeadline))
        case .failure:
          output.append(
            contentsOf: stages[index].apply(Events.Signal(.upstreamFailed, at: now), deadline: &stageDeadline))
        }
      }
      if let request, !requestFirst, !output.terminates {
        output.append(contentsOf: stages[index].apply(request, deadline: &stageDeadline))
      }
      while firing, !output.terminates, let deadline = stageDeadline, deadline <= now {
        let action = stages[index].apply(Events.Signal(.timerFired, at: now), deadline: &stageDeadline)
        output.append(contentsOf: action)
        // A stage that neither acts nor moves its deadline would loop forever.
        if action.isEmpty, stageDeadline == deadline { break }
      }
      if stageDeadline != previousDeadline {
        stageDeadlines[index] = stageDeadline
        deadlinesChanged = true
      }
      events = output
    }
    if deadlinesChanged { earliestDeadline = Self.earliest(of: stageDeadlines) }
    if events.terminates { terminated = true }
    return events
  }

  /// Runs `inputs` with no request of the user's, from the stage at `firstStage`.
  @inlinable
  mutating func run(
    _ inputs: PacingAction<Value>, at now: Instant, starting: Bool = false, firing: Bool = false,
    from firstStage: Int = 0
  ) -> PacingAction<Value> {
    run(
      inputs, at: now, starting: starting, firing: firing, request: PipelineStageEvents<Value, Instant>.Signal?.none,
      from: firstStage)
  }
}

extension PacingPipeline: PacingStateMachine {
  /// The earliest instant at which a stage needs its timer, or `nil`.
  @inlinable
  public var deadline: Instant? {
    terminated ? nil : earliestDeadline
  }

  /// Whether a stage holds a value back.
  @inlinable
  public var hasPendingValue: Bool {
    !terminated && stages.contains { $0.hasPendingValue }
  }

  /// Whether every stage is discardable.
  @inlinable
  public var isDiscardable: Bool {
    !terminated && stages.allSatisfy { $0.isDiscardable }
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
    guard !terminated else { return .none }
    guard !stages.isEmpty else { return .emit(value) }
    // What `run(.emit(value), at: now)` does, without building a list of
    // events at each stage while the value goes through one stage after
    // another alone, as it does in all but a few cases: a stage that drops
    // it ends the trip, and one that answers with anything else than one
    // value hands its answer to `run` for the stages after it. Each answer
    // is moved on, never copied: a copy of a value that holds a reference
    // costs an atomic increment and decrement.
    var action = valueReceived(value, at: now, stage: 0)
    for index in 1..<stages.endIndex {
      guard action.isSingleValue else {
        return action.isEmpty ? .none : run(action, at: now, from: index)
      }
      action = valueReceived(action.takeHead(), at: now, stage: index)
    }
    if action.terminates { terminated = true }
    return action
  }

  /// Hands `value` to the stage at `index`, and notes its deadline after.
  @inlinable
  mutating func valueReceived(_ value: Value, at now: Instant, stage index: Int) -> PacingAction<Value> {
    var stageDeadline = stageDeadlines[index]
    let action = stages[index].apply(
      PipelineStageEvents.ValueReceived(value: value, now: now), deadline: &stageDeadline)
    if stageDeadline != stageDeadlines[index] {
      stageDeadlines[index] = stageDeadline
      earliestDeadline = Self.earliest(of: stageDeadlines)
    }
    return action
  }

  /// Runs `values`, which arrived together at `now`, through the stages as
  /// ``valueReceived(_:at:)`` would one after the other, and appends what
  /// comes out to `output`; returns the ending that came out, if any.
  ///
  /// Only for a pipeline of Pace's own policies (`takesBatches`): it runs
  /// them stage by stage, each stage taking all of them, then the next what
  /// it let through. That gives what one value after the other gives
  /// because no stage of Pace's sets a deadline earlier than the instant it
  /// is told, so no timer falls due between two values of the same instant.
  @inlinable
  mutating func valuesReceived(
    _ values: [Value], at now: Instant, into output: inout [Value]
  ) -> PacingAction<Value>.Ending {
    guard !terminated else { return .none }
    precondition(takesBatches, "valuesReceived is for pipelines of Pace's own policies")
    var input = values
    for index in stages.indices {
      var stageOutput: [Value] = []
      stageOutput.reserveCapacity(input.count)
      var stageDeadline = stageDeadlines[index]
      let ending = stages[index].valuesReceived(input, at: now, deadline: &stageDeadline, into: &stageOutput)
      if stageDeadline != stageDeadlines[index] {
        stageDeadlines[index] = stageDeadline
        earliestDeadline = Self.earliest(of: stageDeadlines)
      }
      guard ending == .none else {
        // The stages after this one take what it let through, then its
        // ending, the general way (which may hold the ending back: a
        // throttle keeps its rate).
        var action = PacingAction<Value>.none
        for value in stageOutput { action.append(.value(value)) }
        action.append(ending == .finish ? .finish : .failure)
        var rest = run(action, at: now, from: index + 1)
        if let head = rest.head.take() {
          output.append(head)
          output.append(contentsOf: rest.tail)
        }
        return rest.ending
      }
      input = stageOutput
      if input.isEmpty { return .none }
    }
    if output.isEmpty {
      output = input  // The same storage, not a copy of each value.
    } else {
      output.append(contentsOf: input)
    }
    return .none
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
