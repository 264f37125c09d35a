//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import Testing

/// Fast switching, the pattern of swift-async-algorithms issue #437 (its
/// `flatMapLatest` trapping or hanging when inner sequences switch fast), and
/// many consumers with many producers: no hang, no crash, the last result
/// always, in order, and no operation left running once the sequence ends.
@Suite(.timeLimit(.minutes(3))) struct MapLatestStressTests {
  /// Operations started and ended.
  final class OperationCount: Sendable {
    private let counts = LockedState<(started: Int, ended: Int)>((0, 0))

    var started: Int { counts.withLock { $0.started } }
    var ended: Int { counts.withLock { $0.ended } }

    func start() { counts.withLock { $0.started += 1 } }
    func end() { counts.withLock { $0.ended += 1 } }
  }

  @Test func aHundredThousandElements_switchingAsFastAsTheyCome() async throws {
    let count = 100_000
    let operations = OperationCount()
    let results = CountingSequence(count: count).mapLatest { value in
      operations.start()
      defer { operations.end() }
      await Task.yield()
      return value
    }
    var received: [Int] = []
    for try await value in results { received.append(value) }
    #expect(received.last == count - 1, "the last element's result must come out")
    #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 }, "results out of order")
    #expect(operations.started == count, "every element has its operation")
    #expect(operations.ended == operations.started, "an operation still runs after the end")
  }

  @Test func severalConsumers_eachWithSeveralProducers_overlapping() async throws {
    let consumers = 4
    let producers = 4
    let elements = 1_000
    try await withThrowingTaskGroup(of: Void.self) { group in
      for _ in 0..<consumers {
        group.addTask {
          let (base, input) = AsyncStream<Int>.makeStream()
          // Each element is numbered in the order the stream gets it.
          let sent = LockedState(0)
          let operations = OperationCount()
          let results = base.mapLatest { value in
            operations.start()
            defer { operations.end() }
            await Task.yield()
            return value
          }
          let consumer = Task {
            var received: [Int] = []
            for try await value in results { received.append(value) }
            return received
          }
          await withTaskGroup(of: Void.self) { feeders in
            for _ in 0..<producers {
              feeders.addTask {
                for _ in 0..<(elements / producers) {
                  sent.withLock { number in
                    number += 1
                    input.yield(number)
                  }
                  await Task.yield()
                }
              }
            }
          }
          input.finish()
          let received = try await consumer.value
          #expect(received.last == elements, "the last element's result must come out")
          #expect(zip(received, received.dropFirst()).allSatisfy { $0 < $1 }, "results out of order")
          #expect(operations.started == elements)
          #expect(operations.ended == operations.started, "an operation still runs after the end")
        }
      }
      try await group.waitForAll()
    }
  }
}
