//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Synchronization

/// What a fleet worker sleeps on: a poke (a finished delivery, a
/// notification, shutdown), a send of this process, or its local timer, set
/// to the earliest instant it knows of. One waiter: the worker's loop.
///
/// Sends are paced: a send wakes the worker at once after a quiet spell, but
/// not before the instant the worker last asked to hold sends until (its
/// previous fold plus ``FleetConfiguration/foldInterval``), so that a busy
/// process folds the sends of that interval together. A poke or the alarm is
/// never held.
///
///     wake.holdSends(until: .now + .milliseconds(10))
///     wake.sent()               // wakes the worker in 10 ms
///     await wake.wait()         // false: no alarm rang
final class FleetWake: DeadlineHolder {
  private struct State {
    var poked = false
    /// A send came and waits for the hold to end.
    var sent = false
    var sendsHeldUntil: ContinuousClock.Instant?
    var alarm: ContinuousClock.Instant?
    var waiter: CheckedContinuation<Void, Never>?
    /// The timer's entry in the ``DeadlineWatcher``, while it is set.
    var timer: UInt64?

    /// When the worker must wake without a poke: the alarm, or the end of
    /// the hold of a send that came during it, whichever is first.
    var nextWake: ContinuousClock.Instant? {
      guard sent, let held = sendsHeldUntil else { return alarm }
      return alarm.map { min($0, held) } ?? held
    }
  }

  private let state = Mutex(State())
  private let watcher: DeadlineWatcher

  /// A wake whose timer `watcher` watches: the process's, unless a test
  /// gives its own.
  init(watcher: DeadlineWatcher = .shared) {
    self.watcher = watcher
  }

  /// Wakes the worker now, or at once when it next waits.
  func poke() {
    state.withLock { pokeLocked(&$0) }?.resume()
  }

  /// The timer rang: a poke, unless the timer of `id` was stopped or set anew since.
  func deadlinePassed(_ id: UInt64) {
    state.withLock { state in state.timer == id ? pokeLocked(&state) : nil }?.resume()
  }

  /// A send of this process: wakes the worker now, or once the hold ends.
  func sent() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      let wasSent = state.sent
      state.sent = true
      guard let held = state.sendsHeldUntil, held > .now else { return pokeLocked(&state) }
      // The first send of the hold sets the timer; the others find it set.
      if state.waiter != nil, !wasSent { startTimer(&state) }
      return nil
    }
    waiter?.resume()
  }

  /// Whether the worker waits now; for tests.
  var isWaiting: Bool {
    state.withLock { $0.waiter != nil }
  }

  /// Holds sends until `instant`: a send before it wakes the worker then.
  func holdSends(until instant: ContinuousClock.Instant) {
    state.withLock { $0.sendsHeldUntil = instant }
  }

  /// Wakes the worker at `instant` at the latest: an earlier alarm than the
  /// one set moves it.
  func wake(at instant: ContinuousClock.Instant) {
    state.withLock { state in
      guard state.alarm.map({ instant < $0 }) ?? true else { return }
      state.alarm = instant
      if state.waiter != nil { startTimer(&state) }
    }
  }

  /// Waits for a poke or the alarm, whichever comes first, then clears the
  /// poke, and the alarm if it rang; returns at once when the task is
  /// cancelled. Returns whether the alarm rang (else a poke woke it).
  @discardableResult
  func wait() async -> Bool {
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let resumeNow = state.withLock { state -> Bool in
          if state.poked || Task.isCancelled { return true }
          if let alarm = state.nextWake, alarm <= .now { return true }
          state.waiter = continuation
          startTimer(&state)
          return false
        }
        if resumeNow { continuation.resume() }
      }
    } onCancel: {
      poke()
    }
    return state.withLock { state in
      state.poked = false
      state.sent = false  // The round that follows folds every send so far.
      stopTimer(&state)
      guard let alarm = state.alarm, alarm <= .now else { return false }
      state.alarm = nil
      return true
    }
  }

  private func startTimer(_ state: inout State) {
    stopTimer(&state)
    guard let alarm = state.nextWake else { return }
    state.timer = watcher.add(self, deadline: alarm)
  }

  /// A poke, under the lock: returns the waiter to resume once it is released.
  private func pokeLocked(_ state: inout State) -> CheckedContinuation<Void, Never>? {
    state.poked = true
    stopTimer(&state)
    defer { state.waiter = nil }
    return state.waiter
  }

  private func stopTimer(_ state: inout State) {
    if let timer = state.timer { watcher.remove(timer) }
    state.timer = nil
  }
}
