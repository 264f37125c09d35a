//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A chain of pacing stages, each feeding the next, run by the time rules of
/// the package's timing contract.
///
/// Within one instant, every stage first handles its input events in order,
/// then fires its timers that are due at or before that instant; what it emits
/// becomes the next stage's input at the same instant. A pipeline is itself
/// pure: its driver passes the instants and keeps one timer for ``deadline``.
///
///     var pipeline = PacingPipeline<String, ContinuousClock.Instant>([
///       DistinctStateMachine(),
///       try DebounceStateMachine(interval: .milliseconds(300)),
///     ])
///     let start = ContinuousClock.now
///     _ = pipeline.start(at: start)
///     _ = pipeline.process([.value("a"), .value("a")], at: start)      // []
///     pipeline.deadline                                                 // start + 300 ms
///     _ = pipeline.process([], at: start + .milliseconds(300))          // [.value("a")]
///
/// Once an event that ends the sequence has come out, the pipeline is
/// ``isTerminated`` and ignores everything after.
public struct PacingPipeline<Value, Instant: InstantProtocol> {
  /// A stage of the pipeline.
  public typealias Stage = any PacingStateMachine<Value, Instant>

  @usableFromInline
  var stages: [Stage]

  /// Whether the pipeline has delivered its finish or failure.
  public private(set) var isTerminated = false

  /// Creates a pipeline that runs `stages` left to right. With no stages it
  /// passes every event through unchanged.
  public init(_ stages: [Stage]) {
    self.stages = stages
  }

  /// The earliest instant at which a stage needs its timer, or `nil`.
  public var deadline: Instant? {
    guard !isTerminated else { return nil }
    var earliest: Instant?
    for stage in stages {
      if let deadline = stage.deadline, earliest.map({ deadline < $0 }) ?? true { earliest = deadline }
    }
    return earliest
  }

  /// Tells every stage that the input starts at `now`; returns what comes out
  /// (for instance the finish of `take 0`).
  public mutating func start(at now: Instant) -> [PacingEvent<Value>] {
    run([], at: now, starting: true)
  }

  /// Handles `inputs`, which all happen at `now`, then fires the timers due at
  /// or before `now`; returns what comes out of the last stage, in order.
  ///
  /// Call it with no inputs when the timer for ``deadline`` fires.
  public mutating func process(_ inputs: [PacingEvent<Value>], at now: Instant) -> [PacingEvent<Value>] {
    run(inputs, at: now, starting: false)
  }

  private mutating func run(_ inputs: [PacingEvent<Value>], at now: Instant, starting: Bool) -> [PacingEvent<Value>] {
    guard !isTerminated else { return [] }
    var events = inputs
    for index in stages.indices {
      var output = StageOutput()
      if starting { output.append(stages[index].started(at: now)) }
      for event in events where !output.terminated {
        switch event {
        case .value(let value): output.append(stages[index].valueReceived(value, at: now))
        case .finished: output.append(stages[index].upstreamFinished(at: now))
        case .failed: output.append(stages[index].upstreamFailed(at: now))
        }
      }
      while !output.terminated, let deadline = stages[index].deadline, deadline <= now {
        let action = stages[index].timerFired(at: now)
        output.append(action)
        // A stage that neither acts nor moves its deadline would loop forever.
        if case .none = action, stages[index].deadline == deadline { break }
      }
      events = output.events
    }
    if events.contains(where: \.isTerminal) { isTerminated = true }
    return events
  }

  /// The events one stage emits within one instant; nothing after its termination.
  private struct StageOutput {
    var events: [PacingEvent<Value>] = []
    var terminated = false

    mutating func append(_ action: PacingAction<Value>) {
      guard !terminated else { return }
      switch action {
      case .none: break
      case .emit(let value): events.append(.value(value))
      case .finish: events.append(.finished)
      case .emitAndFinish(let value): events.append(contentsOf: [.value(value), .finished])
      case .fail: events.append(.failed)
      }
      terminated = action.terminates
    }
  }
}
