//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if os(Linux) && !PACE_PORTABLE_RUNTIME
  import Testing

  @testable import Pace

  /// Pace's delivery threads, handed deliveries directly, each test on a pool
  /// of its own that no other test uses. Whether a thread readied by the timer
  /// thread gets its delivery while it waits for one, or after it went back to
  /// sleep, every delivery must arrive; a lost one fails the time limit.
  @Suite(.timeLimit(.minutes(1))) struct DeliveryThreadsTests {
    final class Owner: Sendable {}

    let threads: DeliveryThreads

    init() throws {
      threads = try #require(DeliveryThreads(startingOneThread: ()))
    }

    /// Hands `threads` one delivery and waits until it has run.
    func deliver(_ value: Int) async -> Int {
      await withCheckedContinuation { continuation in
        threads.run({ _ in continuation.resume(returning: value) }, of: TimerOwner(Owner()))
      }
    }

    /// Waits until the pool's next thread says `word`, checking every millisecond.
    func waitUntilTheNextThread(says word: UInt32) async {
      while threads.nextIdleWord != word { try? await Task.sleep(for: .milliseconds(1)) }
    }

    @Test func aReadiedThread_takesADeliveryThatComesWhileItWaits() async {
      await waitUntilTheNextThread(says: DeliveryThreads.Word.idle)
      threads.ready()
      #expect(threads.nextIdleWord == DeliveryThreads.Word.ready)
      #expect(await deliver(1) == 1)
    }

    @Test func aReadiedThreadThatGetsNoDelivery_goesBackToSleep_andTakesTheNextOne() async {
      await waitUntilTheNextThread(says: DeliveryThreads.Word.idle)
      threads.ready()
      threads.ready()  // Ready already: nothing more to wake.
      #expect(threads.nextIdleWord == DeliveryThreads.Word.ready)
      // After `readyWait` with no delivery, it sleeps until one comes.
      await waitUntilTheNextThread(says: DeliveryThreads.Word.idle)
      #expect(await deliver(2) == 2)
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
