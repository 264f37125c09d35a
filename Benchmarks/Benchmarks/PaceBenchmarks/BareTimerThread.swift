//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Dispatch
import Foundation
import BareTimer

/// The reference of the fire latency benchmark: a thread of its own that
/// sleeps once until each deadline on a bare `timerfd` (elsewhere than Linux,
/// `nanosleep`), and calls back at once. It shows how late this machine wakes
/// a thread that sleeps once until its deadline (on the CI machine, a VM,
/// 104 to 132 µs at p50). Pace's timer thread wakes a little ahead of a lone
/// deadline and sleeps the rest (`KernelTimerScheduler.wakeLead`), so it can
/// come in under this line; the peers cannot.
final class BareTimerThread: @unchecked Sendable {
  // @unchecked Sendable: `request` is written and taken under `lock`; the
  // semaphore hands each one to the thread.
  static let shared = BareTimerThread()

  private let lock = NSLock()
  private let requested = DispatchSemaphore(value: 0)
  private var request: (deadline: Int64, done: @Sendable () -> Void)?

  private init() {
    let thread = Thread { [self] in run() }
    thread.name = "bare timerfd"
    thread.start()
  }

  /// Calls `done` on this thread once `delay` has passed from now;
  /// one request at a time.
  ///
  /// The deadline is worked out here, on the caller's thread, as a pacer's
  /// is in `send`: this thread's own wake-up for the request must not
  /// count as lateness. The probe reads its clock just before this call, so
  /// its deadline is never earlier than the one the probe records.
  func wait(_ delay: Duration, then done: @escaping @Sendable () -> Void) {
    let (seconds, attoseconds) = delay.components
    let deadline = c_pace_bare_timer_now() + seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    lock.withLock {
      precondition(request == nil, "one request at a time")
      request = (deadline, done)
    }
    requested.signal()
  }

  private func run() -> Never {
    while true {
      requested.wait()
      let (deadline, done) = lock.withLock { request.take()! }
      precondition(c_pace_bare_timer_wait_until(deadline) == 0, "the bare timerfd failed: errno \(errno)")
      done()
    }
  }
}
