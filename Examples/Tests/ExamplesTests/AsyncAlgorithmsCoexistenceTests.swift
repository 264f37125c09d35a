//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import AsyncAlgorithms
import Pace
import Testing

/// Users import both packages in one file: `debounced(for:)` and
/// AsyncAlgorithms' `debounce(for:)` must both resolve, with no ambiguity.
@Suite struct AsyncAlgorithmsCoexistenceTests {
  @Test func bothOperators_resolveInOneFile() async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    continuation.yield(1)
    continuation.yield(2)
    continuation.finish()
    // The operators and the types both resolve without module qualification.
    // An hour: 1 and 2 are one burst however the machine pauses between
    // them, and the base's end flushes 2 at once.
    let paced: AsyncPacedSequence<AsyncStream<Int>, DebounceStateMachine<Int, DriverInstant>> = stream.debounced(
      for: .seconds(3_600))
    let theirs: AsyncDebounceSequence<AsyncStream<Int>, ContinuousClock> = stream.debounce(for: .milliseconds(10))
    _ = theirs
    var values: [Int] = []
    for await value in paced { values.append(value) }
    #expect(values == [2])
  }

  @Test func throttled_andAsyncAlgorithmsThrottle_resolveInOneFile() async {
    let (stream, continuation) = AsyncStream<Int>.makeStream()
    continuation.yield(1)
    continuation.finish()
    let paced: AsyncPacedSequence<AsyncStream<Int>, ThrottleStateMachine<Int, DriverInstant>> = stream.throttled(
      for: .milliseconds(10))
    let theirs: _AsyncThrottleSequence<AsyncStream<Int>, ContinuousClock, Int> = stream._throttle(
      for: .milliseconds(10))
    _ = theirs
    var values: [Int] = []
    for await value in paced { values.append(value) }
    #expect(values == [1])
  }
}
