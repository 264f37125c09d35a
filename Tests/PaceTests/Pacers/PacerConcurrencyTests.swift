//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Synchronization
import Testing

/// Many senders, a task that cancels and flushes, and a clock that moves, all
/// at once. Run under `swift test --sanitize=thread` by `.ci/run`.
@Suite struct PacerConcurrencyTests {
  static let senders = 8
  static let sendsPerSender = 100_000

  /// A pacer seen through the calls this test makes.
  struct Controls: Sendable {
    var send: @Sendable (Int) -> Void
    var cancel: @Sendable () -> Void
    var flush: @Sendable () -> Void
    var waitUntilDelivered: @Sendable () async -> Void
  }

  static func controls(_ kind: String, clock: VirtualClock, recorder: Recorder<Int>) throws -> (Controls, AnyObject) {
    if kind == "debouncer" {
      let pacer = Debouncer<Int>(
        for: .frames(2), edges: .trailing(maxWait: .frames(5)), clock: clock, handler: recorder.record)
      return (
        Controls(
          send: pacer.send, cancel: pacer.cancel, flush: pacer.flush, waitUntilDelivered: clock.settle),
        pacer
      )
    }
    let pacer = Throttler<Int>(for: .frames(2), clock: clock, handler: recorder.record)
    return (
      Controls(
        send: pacer.send, cancel: pacer.cancel, flush: pacer.flush, waitUntilDelivered: clock.settle),
      pacer
    )
  }

  @Test(arguments: ["debouncer", "throttler"])
  func eightSenders_whileAnotherTaskCancelsFlushesAndMovesTheClock(kind: String) async throws {
    let clock = VirtualClock()
    let recorder = Recorder<Int>()
    let (pacer, owner) = try Self.controls(kind, clock: clock, recorder: recorder)
    let sendersDone = DoneCounter()

    await withTaskGroup(of: Void.self) { group in
      for sender in 0..<Self.senders {
        group.addTask {
          for index in 0..<Self.sendsPerSender {
            pacer.send(sender * Self.sendsPerSender + index)
            // Share the cooperative pool (two threads here) with tests that run alongside.
            if index.isMultiple(of: 1_000) { await Task.yield() }
          }
          sendersDone.count.add(1, ordering: .releasing)
        }
      }
      group.addTask {
        var round = 0
        while sendersDone.count.load(ordering: .acquiring) < Self.senders {
          if round.isMultiple(of: 2) { pacer.cancel() } else { pacer.flush() }
          clock.advance(by: .frames(1))
          round += 1
          if round.isMultiple(of: 100) { await Task.yield() }
        }
      }
    }

    // Everything emitted during the storm has been handed over, in each sender's order.
    await pacer.waitUntilDelivered()
    let delivered = recorder.all
    for sender in 0..<Self.senders {
      let own = delivered.filter { $0 / Self.sendsPerSender == sender }
      #expect(own == own.sorted(), "sender \(sender)'s values out of order")
    }
    #expect(delivered.allSatisfy { (0..<(Self.senders * Self.sendsPerSender)).contains($0) })

    // After the last cancel, the last value sent is the one the handler ends with.
    pacer.cancel()
    let final = -1
    pacer.send(final)
    clock.advance(by: .frames(10))
    await pacer.waitUntilDelivered()
    #expect(recorder.all.dropFirst(delivered.count) == [final])
    #expect(recorder.last == final)
    withExtendedLifetime(owner) {}
  }
}

/// Counts the senders that are done, across tasks.
final class DoneCounter: Sendable {
  let count = Atomic<Int>(0)
}
