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
/// With `--by`, each key has a policy and runs of its own: a line waits
/// for, drops, restarts or signals only its own key's command, and the
/// commands of different keys run side by side. A key's state goes when
/// nothing of it runs or waits. Without `--by`, every line has the one key nil.
///
/// Events (lines, runs that start and end, the end of the input, a stop) go
/// through one stream to one task, which alone holds the state: no lock.
/// At most ``pendingLineLimit`` lines wait in the stream: a line beyond
/// them waits for room, so memory stays flat when lines come faster than
/// the policy takes them (the input is then read more slowly).
final class CommandRunner: Sendable {
  private enum Event: Sendable {
    case line([UInt8], key: String?)
    case started(key: String?, generation: UInt64, group: pid_t)
    case ended(key: String?, generation: UInt64, CommandRun.Outcome)
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

  /// An emitted line (its bytes, without the newline) and its key. Waits
  /// only while ``pendingLineLimit`` lines wait already: call it from a
  /// thread that may block (not one of Swift concurrency's, which the
  /// supervisor needs).
  func lineEmitted(_ line: [UInt8], key: String? = nil) {
    lineRoom.wait()
    events.yield(.line(line, key: key))
  }

  /// The end of the input: returns when the running commands and any run
  /// that waits for one have ended, with the exit status of a stop that
  /// came meanwhile (see ``stop(exitStatus:)``), or nil.
  func finish() async -> Int32? {
    await withCheckedContinuation { events.yield(.finish($0)) }
  }

  /// `pace` was asked to stop, to exit with `exitStatus`: drops what waits,
  /// stops the running commands by the stop rules, and returns when they
  /// have ended, with the exit status of the first stop (a second Ctrl-C
  /// does not change it).
  func stop(exitStatus: Int32) async -> Int32 {
    await withCheckedContinuation { events.yield(.stop(status: exitStatus, $0)) } ?? exitStatus
  }

  /// The state, owned by the supervising task.
  private struct Supervision {
    let options: CommandOptions
    let events: AsyncStream<Event>.Continuation
    /// The keys with a run or a line that waits.
    var keys: [String?: KeyRuns] = [:]
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
    }

    mutating func handle(_ event: Event) {
      switch event {
      case .line(let line, let key):
        guard !isStopping, !isDone else { return }
        update(key) { runs, options, events in
          let action = runs.policy.workRequested(line)
          runs.perform(action, options, events)
        }
      case .started(let key, let generation, let group):
        update(key) { runs, options, _ in runs.started(generation: generation, group: group, options) }
      case .ended(let key, let generation, let outcome):
        let isStopping = isStopping
        update(key) { runs, options, events in
          runs.ended(generation: generation, outcome, isStopping: isStopping, options, events)
        }
      case .finish(let waiter):
        waiters.append(waiter)
      case .stop(let status, let waiter):
        waiters.append(waiter)
        if stopStatus == nil { stopStatus = status }
        for key in Array(keys.keys) { update(key) { runs, _, _ in runs.stop() } }
      }
      if !waiters.isEmpty, isDone || keys.values.allSatisfy({ $0.isSettled(isStopping: isStopping) }) {
        isDone = true
        for waiter in waiters { waiter.resume(returning: stopStatus) }
        waiters = []
      }
    }

    /// Changes `key`'s runs in place (a new key starts with a policy of its
    /// own), then forgets the key if nothing of it runs or waits.
    private mutating func update(
      _ key: String?, _ change: (inout KeyRuns, CommandOptions, AsyncStream<Event>.Continuation) -> Void
    ) {
      let index: [String?: KeyRuns].Index
      if let live = keys.index(forKey: key) {
        index = live
      } else {
        keys[key] = KeyRuns(key: key, options: options)
        index = keys.index(forKey: key)!
      }
      change(&keys.values[index], options, events)
      if keys.values[index].isIdle { keys.remove(at: index) }
    }
  }

  /// One key's runs: its on-busy policy, its running command, and a run
  /// that waits for a restarted one to end.
  private struct KeyRuns {
    let key: String?
    var policy: OnBusyStateMachine<[UInt8]>
    /// The run in progress: its generation, task and process group, and
    /// signals asked for before its group was known.
    var running: (generation: UInt64, task: Task<Void, Never>, group: pid_t?, isStopping: Bool, hasPendingSignal: Bool)?
    /// A run the policy has started that waits for the one it restarts to end.
    var pendingStart: (line: [UInt8], generation: UInt64)?

    init(key: String?, options: CommandOptions) {
      self.key = key
      policy = OnBusyStateMachine(options.onBusy.policy)
    }

    /// Nothing of it runs or waits: a new policy would do the same.
    var isIdle: Bool {
      running == nil && pendingStart == nil && policy.runningGeneration == nil && !policy.hasWaitingRequest
    }

    /// Nothing of it runs, and nothing waits that will run.
    func isSettled(isStopping: Bool) -> Bool {
      running == nil && pendingStart == nil && (isStopping || !policy.hasWaitingRequest)
    }

    mutating func started(generation: UInt64, group: pid_t, _ options: CommandOptions) {
      guard running?.generation == generation else { return }
      running?.group = group
      if running?.isStopping == true { running?.task.cancel() }
      if running?.hasPendingSignal == true { killpg(group, options.stopSignal.number) }
      running?.hasPendingSignal = false
    }

    mutating func ended(
      generation: UInt64, _ outcome: CommandRun.Outcome, isStopping: Bool, _ options: CommandOptions,
      _ events: AsyncStream<Event>.Continuation
    ) {
      let wasStopped = running?.generation == generation && running?.isStopping == true
      if running?.generation == generation { running = nil }
      CommandRun.report(outcome, wasStopped: wasStopped, options)
      if let next = pendingStart, !isStopping {
        // The restarted run ends: the newest line's run starts only now.
        pendingStart = nil
        start(next.line, generation: next.generation, options, events)
      } else {
        perform(policy.workFinished(generation: generation), options, events)
      }
    }

    /// `pace` stops: what waits is dropped, and the running command stopped.
    mutating func stop() {
      pendingStart = nil
      _ = policy.cancelled()
      if running != nil, running?.isStopping == false {
        running?.isStopping = true
        running?.task.cancel()
      }
    }

    /// Does what the policy answered.
    mutating func perform(
      _ action: OnBusyAction<[UInt8]>, _ options: CommandOptions, _ events: AsyncStream<Event>.Continuation
    ) {
      switch action {
      case .start(let line, let generation):
        // Nothing runs, or the waiting line runs now.
        start(line, generation: generation, options, events)
      case .restart(let cancelling, let line, let generation):
        // Stop the running one (its whole group); start the new one when it has ended.
        pendingStart = (line, generation)
        if running?.generation == cancelling, running?.isStopping == false {
          running?.isStopping = true
          running?.task.cancel()
        }
      case .drop:
        // The line never runs; in signal mode the running command is told.
        if options.onBusy == .signal { signalRunning(options) }
      case .none, .wait, .cancelAll:
        // Nothing to do now: the line waits (queue), or the runner stops everything itself.
        break
      }
    }

    /// Sends the stop signal to the running command's process group.
    private mutating func signalRunning(_ options: CommandOptions) {
      if let group = running?.group {
        killpg(group, options.stopSignal.number)
      } else {
        // Sent as soon as the run's group is known: as the command starts,
        // maybe before it has set up its handler. (Signals do not queue:
        // several asked for meanwhile are one.)
        running?.hasPendingSignal = true
      }
    }

    private mutating func start(
      _ line: [UInt8], generation: UInt64, _ options: CommandOptions, _ events: AsyncStream<Event>.Continuation
    ) {
      let key = key
      let task = Task {
        let outcome = await CommandRun.run(options, line: line, key: key) { group in
          events.yield(.started(key: key, generation: generation, group: group))
        }
        events.yield(.ended(key: key, generation: generation, outcome))
      }
      running = (generation, task, nil, false, false)
    }
  }
}
