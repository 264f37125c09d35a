//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Synchronization

/// The database calls of a worker that may still run, those that
/// `withAnswerTimeout` left behind (the worker was cancelled, or the call ran
/// out of time) included. A call left behind can still commit: a settle that
/// leases an emission given back a moment before, a renewal that extends a
/// lease. So the worker's end waits for them before it gives its leases
/// back, or what they lease would stay leased to a worker that is gone.
final class CallsInFlight: Sendable {
  private struct State {
    var running = 0
    var waiters: [UInt64: CheckedContinuation<Void, Never>] = [:]
    var nextWaiter: UInt64 = 0
  }

  private let state = Mutex(State())

  /// A call begins: counted before it is sent.
  func begin() {
    state.withLock { $0.running += 1 }
  }

  /// A call ended, however it ended.
  func end() {
    let waiters = state.withLock { state -> [CheckedContinuation<Void, Never>] in
      state.running -= 1
      guard state.running == 0 else { return [] }
      defer { state.waiters = [:] }
      return Array(state.waiters.values)
    }
    for waiter in waiters { waiter.resume() }
  }

  /// How many calls run now.
  var running: Int { state.withLock { $0.running } }

  /// Returns once no call runs, or once `limit` has passed, or the task is
  /// cancelled, whichever comes first.
  func waitUntilNone(within limit: Duration) async {
    _ = try? await withAnswerTimeout(limit) { await self.untilNone() }
  }

  private func untilNone() async {
    let id = state.withLock { state -> UInt64 in
      state.nextWaiter += 1
      return state.nextWaiter
    }
    await withTaskCancellationHandler {
      await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
        let now = state.withLock { state -> Bool in
          if state.running == 0 || Task.isCancelled { return true }
          state.waiters[id] = continuation
          return false
        }
        if now { continuation.resume() }
      }
    } onCancel: {
      state.withLock { $0.waiters.removeValue(forKey: id) }?.resume()
    }
  }
}
