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
import Dispatch
import Pace

/// `pace STAGE... -- COMMAND`: runs the command for each emitted line, and
/// does what the library's on-busy policy (`OnBusyStateMachine`) says when a
/// line comes while it still runs. The runner has no ordering rule of its
/// own: it tells the policy "requested" and "finished", and does what it
/// answers (start, keep waiting, drop, restart). `--on-busy signal` is the
/// policy's drop, plus the stop signal to the running command.
///
/// Events (lines, runs that start and end, the end of the input, a stop) go
/// through one stream to one task, which alone holds the state: no lock.
/// At most ``pendingLineLimit`` lines wait in the stream: a line beyond
/// them waits for room, so memory stays flat when lines come faster than
/// the policy takes them (the input is then read more slowly).
final class CommandRunner: Sendable {
  private enum Event: Sendable {
    case line([UInt8])
    case started(generation: UInt64, group: pid_t)
    case ended(generation: UInt64, CommandRun.Outcome)
    case finish(CheckedContinuation<Int32?, Never>)
    case stop(status: Int32, CheckedContinuation<Int32?, Never>)
  }

  /// How many lines may wait for the supervisor.
  static let pendingLineLimit = 256

  private let events: AsyncStream<Event>.Continuation
  private let supervisor: Task<Void, Never>
  /// Room for lines in the stream; the supervisor gives it back as it
  /// takes each line.
  private let lineRoom = DispatchSemaphore(value: pendingLineLimit)

  init(_ options: CommandOptions) {
    let (stream, events) = AsyncStream<Event>.makeStream()
    self.events = events
    let lineRoom = lineRoom
    supervisor = Task {
      var state = Supervision(options: options, events: events)
      // On to the end of the process: a stop or an end that comes after
      // the end is answered at once, and lines find room.
      for await event in stream {
        if case .line = event { lineRoom.signal() }
        state.handle(event)
      }
    }
  }

  /// An emitted line (its bytes, without the newline). Waits only while
  /// ``pendingLineLimit`` lines wait already: call it from a thread that may
  /// block (not one of Swift concurrency's, which the supervisor needs).
  func lineEmitted(_ line: [UInt8]) {
    lineRoom.wait()
    events.yield(.line(line))
  }

  /// The end of the input: returns when the running command and any run
  /// that waits for it have ended, with the exit status of a stop that
  /// came meanwhile (see ``stop(exitStatus:)``), or nil.
  func finish() async -> Int32? {
    await withCheckedContinuation { events.yield(.finish($0)) }
  }

  /// `pace` was asked to stop, to exit with `exitStatus`: drops what waits,
  /// stops the running command by the stop rules, and returns when it has
  /// ended, with the exit status of the first stop (a second Ctrl-C does
  /// not change it).
  func stop(exitStatus: Int32) async -> Int32 {
    await withCheckedContinuation { events.yield(.stop(status: exitStatus, $0)) } ?? exitStatus
  }

  /// The state, owned by the supervising task.
  private struct Supervision {
    let options: CommandOptions
    let events: AsyncStream<Event>.Continuation
    var policy: OnBusyStateMachine<[UInt8]>
    /// The run in progress: its generation, task and process group, and
    /// signals asked for before its group was known.
    var running: (generation: UInt64, task: Task<Void, Never>, group: pid_t?, isStopping: Bool, hasPendingSignal: Bool)?
    /// A run the policy has started that waits for the one it restarts to end.
    var pendingStart: (line: [UInt8], generation: UInt64)?
    /// Who waits for the end (the end of the input, a stop, another stop):
    /// all of them are answered when it comes.
    var waiters: [CheckedContinuation<Int32?, Never>] = []
    /// The exit status of the first stop, once asked for.
    var stopStatus: Int32?
    var isStopping: Bool { stopStatus != nil }
    var isDone = false

    init(options: CommandOptions, events: AsyncStream<Event>.Continuation) {
      self.options = options
      self.events = events
      policy = OnBusyStateMachine(options.onBusy.policy)
    }

    mutating func handle(_ event: Event) {
      switch event {
      case .line(let line):
        guard !isStopping, !isDone else { return }
        perform(policy.workRequested(line))
      case .started(let generation, let group):
        guard running?.generation == generation else { return }
        running?.group = group
        if running?.isStopping == true { running?.task.cancel() }
        if running?.hasPendingSignal == true { killpg(group, options.stopSignal.number) }
        running?.hasPendingSignal = false
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
        waiters.append(waiter)
      case .stop(let status, let waiter):
        waiters.append(waiter)
        if stopStatus == nil { stopStatus = status }
        pendingStart = nil
        _ = policy.cancelled()
        if running != nil, running?.isStopping == false {
          running?.isStopping = true
          running?.task.cancel()
        }
      }
      if !waiters.isEmpty,
        isDone || (running == nil && pendingStart == nil && (isStopping || !policy.hasWaitingRequest))
      {
        isDone = true
        for waiter in waiters { waiter.resume(returning: stopStatus) }
        waiters = []
      }
    }

    /// Does what the policy answered.
    private mutating func perform(_ action: OnBusyAction<[UInt8]>) {
      switch action {
      case .start(let line, let generation):
        // Nothing runs, or the waiting line runs now.
        start(line, generation: generation)
      case .restart(let cancelling, let line, let generation):
        // Stop the running one (its whole group); start the new one when it has ended.
        pendingStart = (line, generation)
        if running?.generation == cancelling, running?.isStopping == false {
          running?.isStopping = true
          running?.task.cancel()
        }
      case .drop:
        // The line never runs; in signal mode the running command is told.
        if options.onBusy == .signal { signalRunning() }
      case .none, .wait, .cancelAll:
        // Nothing to do now: the line waits (queue), or the runner stops everything itself.
        break
      }
    }

    /// Sends the stop signal to the running command's process group.
    private mutating func signalRunning() {
      if let group = running?.group {
        killpg(group, options.stopSignal.number)
      } else {
        // Sent as soon as the run's group is known: as the command starts,
        // maybe before it has set up its handler. (Signals do not queue:
        // several asked for meanwhile are one.)
        running?.hasPendingSignal = true
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
      running = (generation, task, nil, false, false)
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
