//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Dispatch
import Testing

@testable import Pace

/// Pace's own lock, contended by more threads than there are cores (its
/// ordering is also checked by the suite's ThreadSanitizer run in `.ci/run`).
@Suite struct LockedStateTests {
  @Test func contendedIncrements_areNeverLost() {
    let threads = 8
    let increments = 50_000
    let counter = LockedState((total: 0, inside: 0, overlaps: 0))
    DispatchQueue.concurrentPerform(iterations: threads) { _ in
      for _ in 0..<increments {
        counter.withLock { state in
          // Two threads inside at once would show here, or as a lost increment.
          state.inside += 1
          if state.inside != 1 { state.overlaps += 1 }
          state.total += 1
          state.inside -= 1
        }
      }
    }
    let (total, inside, overlaps) = counter.withLock { $0 }
    #expect(total == threads * increments)
    #expect(inside == 0)
    #expect(overlaps == 0)
  }

  @Test func aThrowingBody_releasesTheLock() {
    struct Failure: Error {}
    let state = LockedState(0)
    #expect(throws: Failure.self) {
      try state.withLock { (value: inout Int) throws(Failure) in
        value = 1
        throw Failure()
      }
    }
    // Locking again would deadlock if the throw had left the lock held.
    #expect(state.withLock { $0 } == 1)
  }
}
