//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// Cancelling the consumer of a paced sequence ends it, cancels its timer and
/// stops consuming the base.
@Suite struct SequenceCancellationTests {
  @Test(arguments: ["debounced", "throttled"])
  func cancellingTheConsumer_endsTheSequence_cancelsTheTimer_andStopsTheBase(operator name: String) async throws {
    let clock = VirtualClock()
    let (base, input) = AsyncStream<Int>.makeStream()
    let baseTerminated = LockedState(false)
    input.onTermination = { _ in baseTerminated.withLock { $0 = true } }
    let consumer: Task<[Int], Never>
    if name == "debounced" {
      let sequence = base.debounced(for: .frames(10), clock: clock)
      consumer = Task { await Self.collect(sequence) }
    } else {
      let sequence = base.throttled(for: .frames(10), edges: .trailing, clock: clock)
      consumer = Task { await Self.collect(sequence) }
    }
    input.yield(1)
    // Wait, without sleeping, until the element is in the policy and its timer is armed.
    await clock.waitForPendingTimers()
    consumer.cancel()
    let received = await consumer.value
    #expect(received.isEmpty)
    #expect(clock.pendingTimerCount == 0)
    #expect(baseTerminated.withLock { $0 })
    // The base is no longer consumed: yielding now is not delivered anywhere.
    guard case .terminated = input.yield(2) else {
      Issue.record("the base is still consumed")
      return
    }
  }

  static func collect<S: AsyncSequence>(_ sequence: S) async -> [Int] where S.Element == Int {
    var values: [Int] = []
    do {
      for try await value in sequence { values.append(value) }
    } catch {}
    return values
  }

  @Test func droppingTheIterator_endsTheSequence() async throws {
    let clock = VirtualClock()
    let (base, input) = AsyncStream<Int>.makeStream()
    let baseTerminated = LockedState(false)
    input.onTermination = { _ in baseTerminated.withLock { $0 = true } }
    do {
      var iterator = base.debounced(for: .frames(1), clock: clock).makeAsyncIterator()
      input.yield(1)
      await iterator.waitUntil(upstreamEventsHandled: 1)
      clock.advance(to: .frame(1))
      #expect(try await iterator.next() == 1)
    }
    #expect(clock.pendingTimerCount == 0)
    #expect(baseTerminated.withLock { $0 })
  }

  @Test func baseFailure_isThrownWithItsType_andDropsThePendingElement() async throws {
    struct Boom: Error, Equatable {}
    let clock = VirtualClock()
    let (base, input) = AsyncThrowingStream<Int, any Error>.makeStream()
    var iterator = base.debounced(for: .frames(3), clock: clock).makeAsyncIterator()
    input.yield(1)
    input.finish(throwing: Boom())
    await iterator.waitUntil(upstreamEventsHandled: 2)
    await #expect(throws: Boom.self) { try await iterator.next() }
    #expect(try await iterator.next() == nil)
  }
}
