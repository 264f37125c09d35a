//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Pace

/// `pace STAGE... -- COMMAND`: runs the command for each emitted line, and
/// does what the library's on-busy policy (`OnBusyStateMachine`) says when a
/// line comes while it still runs. The runner has no ordering rule of its
/// own: it tells the policy "requested" and "finished", and does what it
/// answers (start, keep waiting, drop, restart, signal).
///
/// Events (lines, runs that start and end, the end of the input, a stop) go
/// through one stream to one task, which alone holds the state: no lock.
final class CommandRunner: Sendable {
  private enum Event: Sendable {
    case line([UInt8])
    case started(generation: UInt64, group: pid_t)
    case ended(generation: UInt64, CommandRun.Outcome)
    case finish(CheckedContinuation<Void, Never>)
    case stop(CheckedContinuation<Void, Never>)
  }

  private let events: AsyncStream<Event>.Continuation
  private let supervisor: Task<Void, Never>

  init(_ options: CommandOptions) {
    let (stream, events) = AsyncStream<Event>.makeStream()
    self.events = events
    supervisor = Task {
      var state = Supervision(options: options, events: events)
      for await event in stream {
        state.handle(event)
        if state.isDone { break }
      }
    }
  }

  /// An emitted line (its bytes, without the newline). Never waits.
  func lineEmitted(_ line: [UInt8]) {
    events.yield(.line(line))
  }

  /// The end of the input: returns when the running command and any run
  /// that waits for it have ended.
  func finish() async {
    await withCheckedContinuation { events.yield(.finish($0)) }
  }

  /// `pace` was asked to stop: drops what waits, stops the running command
  /// by the stop rules, and returns when it has ended.
  func stop() async {
    await withCheckedContinuation { events.yield(.stop($0)) }
  }

  /// The state, owned by the supervising task.
  private struct Supervision {
    let options: CommandOptions
    let events: AsyncStream<Event>.Continuation
    var policy: OnBusyStateMachine<[UInt8]>
    /// The run in progress: its generation, task and process group.
    var running: (generation: UInt64, task: Task<Void, Never>, group: pid_t?, isStopping: Bool)?
    /// A run the policy has started that waits for the one it restarts to end.
    var pendingStart: (line: [UInt8], generation: UInt64)?
    var finishWaiter: CheckedContinuation<Void, Never>?
    var isStopping = false
    var isDone = false

    init(options: CommandOptions, events: AsyncStream<Event>.Continuation) {
      self.options = options
      self.events = events
      policy = OnBusyStateMachine(options.onBusy)
    }

    mutating func handle(_ event: Event) {
      switch event {
      case .line(let line):
        guard !isStopping else { return }
        perform(policy.workRequested(line))
      case .started(let generation, let group):
        guard running?.generation == generation else { return }
        running?.group = group
        if running?.isStopping == true { running?.task.cancel() }
      case .ended(let generation, let outcome):
        let wasStopped = running?.generation == generation && running?.isStopping == true
        if running?.generation == generation { running = nil }
        report(outcome, wasStopped: wasStopped)
        if let next = pendingStart, !isStopping {
          // The restarted run ends: the newest line's run starts only now.
          pendingStart = nil
          start(next.line, generation: next.generation)
        } else {
          perform(policy.workFinished(generation: generation))
        }
      case .finish(let waiter):
        finishWaiter = waiter
      case .stop(let waiter):
        isStopping = true
        pendingStart = nil
        _ = policy.cancelled()
        finishWaiter = waiter
        if running != nil {
          running?.isStopping = true
          running?.task.cancel()
        }
      }
      if let waiter = finishWaiter, running == nil, pendingStart == nil, isStopping || !policy.hasWaitingRequest {
        finishWaiter = nil
        isDone = true
        waiter.resume()
      }
    }

    /// Does what the policy answered.
    private mutating func perform(_ action: OnBusyAction<[UInt8]>) {
      switch action {
      case .start(let line, let generation):
        start(line, generation: generation)
      case .restart(let cancelling, let line, let generation):
        // Stop the running one (its whole group); start the new one when it has ended.
        pendingStart = (line, generation)
        if running?.generation == cancelling, running?.isStopping == false {
          running?.isStopping = true
          running?.task.cancel()
        }
      case .signal:
        if let group = running?.group { killpg(group, options.stopSignal) }
      case .none, .wait, .drop, .join, .cancelAll:
        break  // Kept waiting (queue), dropped (drop), or nothing to do.
      }
    }

    private mutating func start(_ line: [UInt8], generation: UInt64) {
      let (options, events) = (options, events)
      let task = Task {
        let outcome = await CommandRun.run(options, line: line) { group in
          events.yield(.started(generation: generation, group: group))
        }
        events.yield(.ended(generation: generation, outcome))
      }
      running = (generation, task, nil, false)
    }

    /// A run that failed is told on standard error, in one line; one that
    /// pace stopped is not.
    private func report(_ outcome: CommandRun.Outcome, wasStopped: Bool) {
      let name = options.displayName
      let message: String
      switch outcome {
      case .exited(0):
        return
      case .exited(let status):
        message = "command '\(name)' exited with status \(status)"
      case .signalled(let signal):
        if wasStopped { return }
        message = "command '\(name)' was ended by signal \(signal)"
      case .couldNotStart(let reason):
        message = "command '\(name)' could not start: \(reason)"
      }
      let line = message.split(whereSeparator: \.isNewline).joined(separator: " ")
      FileDescriptorOutput.standardError.write("pace: \(line)\n")
    }
  }
}
