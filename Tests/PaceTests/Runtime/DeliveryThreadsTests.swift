//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if os(Linux) && !PACE_PORTABLE_RUNTIME
  import Testing

  @testable import Pace

  /// Pace's delivery threads, handed deliveries directly. Whether a thread
  /// readied by the timer thread gets its delivery while it waits for one,
  /// or after it went back to sleep, every delivery must arrive.
  @Suite struct DeliveryThreadsTests {
    final class Owner: Sendable {}

    let threads = try! #require(DeliveryThreads.shared)

    /// Hands `threads` one delivery and waits until it has run.
    func deliver(_ value: Int) async -> Int {
      await withCheckedContinuation { continuation in
        threads.run({ _ in continuation.resume(returning: value) }, of: TimerOwner(Owner()))
      }
    }

    @Test func aDeliveryAfterReady_arrives() async {
      threads.ready()
      #expect(await deliver(1) == 1)
    }

    @Test func readyTwiceWithNoDelivery_thenDeliveriesStillArrive() async {
      threads.ready()
      threads.ready()  // The thread is ready already: nothing to wake.
      #expect(await deliver(2) == 2)
      // A ready thread that no delivery comes to goes back to sleep (after
      // `readyWait`) and still takes the next; one still waiting takes it at once.
      threads.ready()
      try? await Task.sleep(for: .milliseconds(5))
      #expect(await deliver(3) == 3)
    }

    @Test func manyReadiesAndDeliveries_fromSeveralTasks_allArrive() async {
      let values = await withTaskGroup(of: Int.self) { group in
        for _ in 0..<8 {
          group.addTask {
            var sum = 0
            for index in 0..<200 {
              if index % 3 == 0 { threads.ready() }
              sum += await deliver(1)
            }
            return sum
          }
        }
        return await group.reduce(0, +)
      }
      #expect(values == 8 * 200)
    }
  }
#endif
