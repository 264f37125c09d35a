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
  private let count = Mutex(0)
  private let drained = FleetWake()

  /// A call begins: counted before it is sent.
  func begin() {
    count.withLock { $0 += 1 }
  }

  /// A call ended, however it ended.
  func end() {
    let none = count.withLock { count -> Bool in
      count -= 1
      return count == 0
    }
    if none { drained.poke() }
  }

  /// How many calls run now.
  var running: Int { count.withLock { $0 } }

  /// Returns once no call runs, or at `deadline`, whichever comes first.
  /// One waiter at a time (the worker's end), not cancelled (a cancelled
  /// wait would return at once).
  func waitUntilNone(before deadline: ContinuousClock.Instant) async {
    drained.wake(at: deadline)
    while running > 0, ContinuousClock.now < deadline {
      await drained.wait()
    }
  }
}
