//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@testable import PacePostgres
import Synchronization
import Testing

/// What a worker's end waits for before it gives its leases back: the calls
/// it left behind, which may still lease.
@Suite struct CallsInFlightTests {
  @Test func noCall_returnsAtOnce() async {
    let calls = CallsInFlight()
    let start = ContinuousClock.now
    await calls.waitUntilNone(within: .seconds(60))
    #expect(ContinuousClock.now - start < .seconds(30))
  }

  @Test func aCallLeftBehind_isWaitedForUntilItEnds() async throws {
    let calls = CallsInFlight()
    let release = Mutex<CheckedContinuation<Void, Never>?>(nil)
    let ended = Mutex(false)
    // The caller is cancelled: `withAnswerTimeout` answers at once and
    // leaves the call running.
    let caller = Task {
      try await withAnswerTimeout(nil, counting: calls) {
        await withCheckedContinuation { continuation in release.withLock { $0 = continuation } }
        ended.withLock { $0 = true }
      }
    }
    while release.withLock({ $0 == nil }) { await Task.yield() }
    caller.cancel()
    await #expect(throws: CancellationError.self) { try await caller.value }
    #expect(calls.running == 1)
    let waiter = Task { await calls.waitUntilNone(within: .seconds(60)) }
    release.withLock { $0?.resume() }
    await waiter.value
    #expect(ended.withLock { $0 })
    #expect(calls.running == 0)
  }

  @Test func aCallThatNeverEnds_isWaitedForOnlyUntilTheLimit_everyTime() async {
    let calls = CallsInFlight()
    calls.begin()
    // Twice: a worker may run, and end, more than once.
    for _ in 0..<2 {
      let start = ContinuousClock.now
      await calls.waitUntilNone(within: .milliseconds(50))
      #expect(ContinuousClock.now - start >= .milliseconds(50))
      #expect(ContinuousClock.now - start < .seconds(30))
    }
    #expect(calls.running == 1)
    // It ends: a wait now returns at once.
    calls.end()
    await calls.waitUntilNone(within: .seconds(60))
    #expect(calls.running == 0)
  }
}
