//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceTesting
import Testing

/// The pitfalls of a latest-wins map: late results of superseded operations,
/// results the consumer has not taken yet, and cancellation reaching both the
/// running operation and the base. None of them waits on real time.
@Suite(.timeLimit(.minutes(3))) struct MapLatestSequenceTests {
  struct Boom: Error {}

  @Test func aSupersededOperation_thatIgnoresCancellationAndReturnsLate_neverProducesItsResult() async throws {
    let gate = Gate()
    let (base, input) = AsyncStream<String>.makeStream()
    var results = base.mapLatest { value in
      if value == "stale" { await gate.pass() }  // Waits at the gate, cancelled or not.
      return value
    }.makeAsyncIterator()
    input.yield("stale")
    await results.waitUntil { $0.operationsStarted == 1 }
    var arrivals = gate.arrived.makeAsyncIterator()
    await arrivals.next()  // The first operation runs, and will not stop for cancellation.
    input.yield("fresh")
    #expect(try await results.next() == "fresh")
    gate.open()  // The stale operation returns now, after the fresh one.
    input.finish()
    // The finish waits for the stale operation to end; its result never comes out.
    #expect(try await results.next() == nil)
  }

  @Test func aSupersededOperation_thatThrows_isIgnored() async throws {
    let gate = Gate()
    let (base, input) = AsyncStream<String>.makeStream()
    var results = base.mapLatest { value in
      if value == "stale" {
        await gate.pass()
        throw Boom()
      }
      return value
    }.makeAsyncIterator()
    input.yield("stale")
    await results.waitUntil { $0.operationsStarted == 1 }
    var arrivals = gate.arrived.makeAsyncIterator()
    await arrivals.next()
    input.yield("fresh")
    // The stale operation throws only once "fresh" has superseded it; before
    // that, its error would be the latest result, and rightly thrown.
    await results.waitUntil { $0.operationsStarted == 2 }
    gate.open()
    input.finish()
    #expect(try await results.next() == "fresh")
    #expect(try await results.next() == nil)
  }

  @Test func aResultTheConsumerHasNotTakenYet_isSupersededByANewerElement() async throws {
    let (base, input) = AsyncStream<String>.makeStream()
    var results = base.mapLatest { $0 }.makeAsyncIterator()
    input.yield("a")
    await results.waitUntil { $0.operationsEnded == 1 }  // "a" is out of its operation, not taken.
    input.yield("b")
    await results.waitUntil { $0.operationsEnded == 2 }
    input.finish()
    #expect(try await results.next() == "b")
    #expect(try await results.next() == nil)
  }

  @Test func cancellingTheConsumer_cancelsTheRunningOperation_andTheBase_andEndsWithNil() async throws {
    let clock = VirtualClock()
    let (base, input) = AsyncStream<String>.makeStream()
    let baseTerminated = Signal()
    input.onTermination = { _ in baseTerminated.signal() }
    let operationCancelled = Signal()
    let sequence = base.mapLatest { value in
      try await withTaskCancellationHandler {
        try await clock.sleep(until: .frame(1_000))
        return value
      } onCancel: {
        operationCancelled.signal()
      }
    }
    let consumer = Task {
      var received: [String] = []
      for try await value in sequence { received.append(value) }
      return received
    }
    input.yield("a")
    await clock.waitForSleepers()  // The operation runs; the consumer waits for it.
    consumer.cancel()
    #expect(try await consumer.value == [])  // `nil`, not an error, ended the loop.
    await operationCancelled.wait()
    await baseTerminated.wait()
    #expect(clock.sleeperCount == 0)
  }

  @Test func droppingTheIterator_cancelsTheRunningOperation_andTheBase() async {
    let clock = VirtualClock()
    let (base, input) = AsyncStream<String>.makeStream()
    let baseTerminated = Signal()
    input.onTermination = { _ in baseTerminated.signal() }
    let operationCancelled = Signal()
    do {
      let results = base.mapLatest { value in
        do {
          try await clock.sleep(until: .frame(1_000))
        } catch {
          operationCancelled.signal()
        }
        return value
      }.makeAsyncIterator()
      input.yield("a")
      await results.waitUntil { $0.operationsStarted == 1 }
      await clock.waitForSleepers()
    }
    await operationCancelled.wait()
    await baseTerminated.wait()
  }

  @Test func theTransformsError_endsTheSequence_andStopsConsumingTheBase() async throws {
    let (base, input) = AsyncStream<String>.makeStream()
    let baseTerminated = Signal()
    input.onTermination = { _ in baseTerminated.signal() }
    var results = base.mapLatest { value in
      if value == "boom" { throw Boom() }
      return value
    }.makeAsyncIterator()
    input.yield("a")
    #expect(try await results.next() == "a")
    input.yield("boom")
    await #expect(throws: Boom.self) { try await results.next() }
    await baseTerminated.wait()
    #expect(try await results.next() == nil)
  }

  @Test func theBasesFailure_cancelsTheRunningOperation_thenIsThrown() async throws {
    let clock = VirtualClock()
    let (base, input) = AsyncThrowingStream<String, any Error>.makeStream()
    let operationCancelled = Signal()
    var results = base.mapLatest { value in
      do {
        try await clock.sleep(until: .frame(1_000))
      } catch {
        operationCancelled.signal()
      }
      return value  // Returns although cancelled: the result must be dropped.
    }.makeAsyncIterator()
    input.yield("a")
    await results.waitUntil { $0.operationsStarted == 1 }
    await clock.waitForSleepers()
    input.finish(throwing: Boom())
    await #expect(throws: Boom.self) { try await results.next() }
    await operationCancelled.wait()
    #expect(try await results.next() == nil)
  }

  @Test func aTransformOnTheMainActor_runsThere() async throws {
    let results = CountingSequence(count: 3).mapLatest { @MainActor value in
      MainActor.preconditionIsolated()
      return value
    }
    var last: Int?
    for try await value in results { last = value }
    #expect(last == 2)
  }
}
