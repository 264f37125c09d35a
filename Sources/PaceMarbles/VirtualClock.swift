//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

public import Pace

/// A clock whose time passes only when you advance it.
///
/// Pace's drivers run their timers on it synchronously: advancing the clock
/// fires every timer due, earliest deadline first and, for the same deadline,
/// in the order they were armed, with ``now`` already set to the instant
/// advanced to (a timer due earlier sees that later instant, as a late timer
/// on a real clock does). Tasks that `sleep` on the clock are resumed when it reaches their
/// deadline. Nothing depends on real time or on how often tasks yield, so a
/// test that passes once passes every time.
///
/// A pacer's handler runs in a task, like on a real clock; ``settle()`` waits
/// until every pacer on the clock has handed what it emitted to its handler:
///
/// ```swift
/// let clock = VirtualClock()
/// let received = Mutex<[String]>([])
/// let debouncer = Debouncer<String>(for: .frames(3), clock: clock) { value in
///   received.withLock { $0.append(value) }
/// }
/// debouncer.send("a")
/// clock.advance(to: .frame(3))                   // the timer fires…
/// await clock.settle()                           // …and the handler has run
/// ```
public final class VirtualClock: Clock, ManualTimerClock, Sendable {
  public typealias Instant = VirtualInstant
  public typealias Duration = Swift.Duration

  private struct Timer {
    var deadline: VirtualInstant
    var id: UInt64
    var action: @Sendable () -> Void
  }

  private struct Sleeper {
    var deadline: VirtualInstant
    var id: UInt64
    var continuation: CheckedContinuation<Void, any Error>
  }

  private struct State {
    var now: VirtualInstant
    var nextID: UInt64 = 0
    var timers: [Timer] = []
    var sleepers: [Sleeper] = []
    /// Sleepers cancelled before they were registered.
    var cancelledSleepers: Set<UInt64> = []
    /// Deliveries that drivers on this clock have started and not finished.
    var deliveries = 0
    /// Tasks waiting for timers to be armed, tasks to sleep, or deliveries to end.
    var waiters = ProgressWaiters<Progress>()

    var progress: Progress { Progress(timers: timers.count, sleepers: sleepers.count, deliveries: deliveries) }

    /// The waiters that the clock's progress now satisfies, taken out.
    mutating func takeReachedWaiters() -> [CheckedContinuation<Void, Never>] {
      waiters.isEmpty ? [] : waiters.takeReached(progress)
    }
  }

  /// What a test waits for on the clock.
  private struct Progress {
    var timers: Int
    var sleepers: Int
    var deliveries: Int
  }

  private let state: LockedState<State>

  /// Creates a clock that reads `now`; frame 0 by default.
  public init(now: VirtualInstant = .frame(0)) {
    state = LockedState(State(now: now))
  }

  /// The current instant.
  public var now: VirtualInstant {
    state.withLock { $0.now }
  }

  /// Zero: virtual time has no resolution limit.
  public var minimumResolution: Duration { .zero }

  /// The number of driver timers armed and not yet fired.
  public var pendingTimerCount: Int {
    state.withLock { $0.timers.count }
  }

  /// The number of tasks sleeping on the clock.
  public var sleeperCount: Int {
    state.withLock { $0.sleepers.count }
  }

  /// The earliest deadline among the armed timers and sleepers, if any.
  public var nextDeadline: VirtualInstant? {
    state.withLock { state in
      (state.timers.map(\.deadline) + state.sleepers.map(\.deadline)).min()
    }
  }

  /// Suspends until the clock reaches `deadline`; throws `CancellationError`
  /// when the task is cancelled first.
  public func sleep(until deadline: VirtualInstant, tolerance: Duration? = nil) async throws {
    let id = state.withLock { state in
      state.nextID += 1
      return state.nextID
    }
    try await withTaskCancellationHandler {
      try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
        let (result, ready) = state.withLock {
          state -> (Result<Void, any Error>?, [CheckedContinuation<Void, Never>]) in
          if state.cancelledSleepers.remove(id) != nil { return (.failure(CancellationError()), []) }
          if deadline <= state.now { return (.success(()), []) }
          state.sleepers.append(Sleeper(deadline: deadline, id: id, continuation: continuation))
          return (nil, state.takeReachedWaiters())
        }
        if let result { continuation.resume(with: result) }
        for waiter in ready { waiter.resume() }
      }
    } onCancel: {
      let continuation = state.withLock { state -> CheckedContinuation<Void, any Error>? in
        guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else {
          state.cancelledSleepers.insert(id)
          return nil
        }
        return state.sleepers.remove(at: index).continuation
      }
      continuation?.resume(throwing: CancellationError())
    }
  }

  /// Moves the clock to `instant` without firing anything yet, so that events
  /// of that instant can happen before its timers (see `fireDueTimers()`).
  /// Time never moves backwards: an earlier instant is ignored.
  ///
  /// Not API: the marble runner's half of ``advance(to:)``, for tools that
  /// replay an instant's inputs before its timers (the `pace demo` replay,
  /// which is another package, hence `@_spi(Tools)` rather than `package`).
  @_spi(Tools) public func jump(to instant: VirtualInstant) {
    state.withLock { state in
      if instant > state.now { state.now = instant }
    }
  }

  /// Fires every timer due at or before ``now`` (including timers that firing
  /// arms for the same instant) and resumes the sleepers that are due.
  ///
  /// Not API: the other half of ``advance(to:)``; see `jump(to:)`.
  @_spi(Tools) public func fireDueTimers() {
    while true {
      let next = state.withLock { state -> Timer? in
        let due = state.timers.indices.filter { state.timers[$0].deadline <= state.now }
        // Earliest deadline first; for the same deadline, the order of arming.
        guard
          let index = due.min(by: {
            (state.timers[$0].deadline, state.timers[$0].id) < (state.timers[$1].deadline, state.timers[$1].id)
          })
        else { return nil }
        return state.timers.remove(at: index)
      }
      guard let next else { break }
      next.action()
    }
    let due = state.withLock { state -> [Sleeper] in
      let due = state.sleepers.filter { $0.deadline <= state.now }.sorted {
        ($0.deadline, $0.id) < ($1.deadline, $1.id)
      }
      state.sleepers.removeAll { $0.deadline <= state.now }
      return due
    }
    for sleeper in due { sleeper.continuation.resume() }
  }

  /// Moves the clock to `instant`, then fires every timer due at or before
  /// it (including timers that firing arms for the same instant) and resumes
  /// the sleepers that are due. Time never moves backwards: an earlier
  /// instant fires what is due at ``now``.
  ///
  ///     clock.advance(to: .frame(3))
  public func advance(to instant: VirtualInstant) {
    jump(to: instant)
    fireDueTimers()
  }

  /// Moves the clock on by `duration` and fires what is due.
  public func advance(by duration: Duration) {
    advance(to: now.advanced(by: duration))
  }

  /// Suspends until at least `count` driver timers are armed: for instance,
  /// until a sequence consumed in another task has taken an element in.
  public func waitForPendingTimers(count: Int = 1) async {
    await state.wait(in: \.waiters, until: { $0.timers >= count }, now: \.progress)
  }

  /// Suspends until at least `count` tasks sleep on the clock: for instance,
  /// until an operation started in another task has reached its `sleep`.
  ///
  ///     let operation = Task { try await clock.sleep(until: .frame(10)) }
  ///     await clock.waitForSleepers()    // it sleeps now
  public func waitForSleepers(count: Int = 1) async {
    await state.wait(in: \.waiters, until: { $0.sleepers >= count }, now: \.progress)
  }

  /// Returns once every delivery that pacers on this clock have started has
  /// finished: every value their policies emitted so far has been handed to
  /// their handlers (and what those handlers sent in turn, too).
  ///
  ///     debouncer.send("a")
  ///     clock.advance(to: .frame(3))
  ///     await clock.settle()      // the handler has run with "a"
  public func settle() async {
    await state.wait(in: \.waiters, until: { $0.deliveries == 0 }, now: \.progress)
  }

  /// How drivers arm a timer on this clock; not API.
  package func armTimer(at deadline: VirtualInstant, _ action: @escaping @Sendable () -> Void) -> UInt64 {
    let (id, ready) = state.withLock { state in
      state.nextID += 1
      state.timers.append(Timer(deadline: deadline, id: state.nextID, action: action))
      return (state.nextID, state.takeReachedWaiters())
    }
    for waiter in ready { waiter.resume() }
    return id
  }

  /// How drivers cancel a timer on this clock; not API.
  package func disarmTimer(_ token: UInt64) {
    let removed = state.withLock { state in
      state.timers.firstIndex { $0.id == token }.map { state.timers.remove(at: $0) }
    }
    _ = removed  // Its action is released here, outside the clock's lock (it holds the driver's scheduler).
  }

  /// A driver started a delivery; ``settle()`` waits for it. Not API.
  package func deliveryStarted() {
    state.withLock { $0.deliveries += 1 }
  }

  /// A delivery is done. Not API.
  package func deliveryFinished() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.deliveries -= 1
      return state.takeReachedWaiters()
    }
    for waiter in waiters { waiter.resume() }
  }
}
