//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Synchronization

/// What a fleet worker sleeps on: a poke (a send of this process, a
/// finished delivery, a notification, shutdown) or its local timer, set to
/// the earliest instant it knows of. One waiter: the worker's loop.
final class FleetWake: Sendable {
  private struct State {
    var poked = false
    var alarm: ContinuousClock.Instant?
    var waiter: CheckedContinuation<Void, Never>?
    var timer: Task<Void, Never>?
  }

  private let state = Mutex(State())

  /// Wakes the worker now, or at once when it next waits.
  func poke() {
    let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
      state.poked = true
      state.timer?.cancel()
      state.timer = nil
      defer { state.waiter = nil }
      return state.waiter
    }
    waiter?.resume()
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
          if let alarm = state.alarm, alarm <= .now { return true }
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
      state.timer?.cancel()
      state.timer = nil
      guard let alarm = state.alarm, alarm <= .now else { return false }
      state.alarm = nil
      return true
    }
  }

  private func startTimer(_ state: inout State) {
    state.timer?.cancel()
    state.timer = nil
    guard let alarm = state.alarm else { return }
    state.timer = Task { [weak self] in
      try? await Task.sleep(until: alarm, clock: .continuous)
      guard !Task.isCancelled else { return }
      self?.poke()
    }
  }
}
