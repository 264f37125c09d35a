//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import AsyncAlgorithms
import Benchmark
import Pace
import Peers

/// Registers the `mapLatest` benchmarks: the cost per element of a base that
/// never suspends, through a transform that returns at once (async, but never
/// suspending), against AsyncAlgorithms' `flatMapLatest` over a one-element
/// inner sequence, which is how its users write a latest-wins map.
///
/// Both consume every element of the base, and the figure is per base
/// element; Pace's need not produce every result (a newer element supersedes
/// a result not taken yet). The last result is checked, so that neither can
/// stop early.
func registerMapLatestBenchmarks() {
  let perElement = Benchmark.Configuration(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: 1,
    scalingFactor: .mega, maxDuration: .seconds(10), maxIterations: 5)

  Benchmark("mapLatest per element | Pace mapLatest", configuration: perElement) { benchmark in
    let count = benchmark.scaledIterations.count
    var last = -1
    for try await value in ImmediateSequence(count: count).mapLatest({ $0 &+ 1 }) { last = value }
    precondition(last == count, "the last result must come out")
    blackHole(last)
  }

  Benchmark("mapLatest per element | AsyncAlgorithms flatMapLatest", configuration: perElement) { benchmark in
    let count = benchmark.scaledIterations.count
    var last = -1
    for await value in ImmediateSequence(count: count).flatMapLatest({ [$0 &+ 1].async }) { last = value }
    precondition(last == count, "the last result must come out")
    blackHole(last)
  }
}
