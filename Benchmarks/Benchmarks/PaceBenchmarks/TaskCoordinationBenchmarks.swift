//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Benchmark
import Pace
import Peers

/// Registers the task-coordination benchmarks: `LatestTask.run` and
/// `SingleFlight.run` per call, against the hand-rolled versions of the
/// article (a stored `Task` cancelled on each call; an actor with a
/// dictionary of tasks). The operations return at once, so the figures are
/// the machinery's cost per call.
func registerTaskCoordinationBenchmarks() {
  let perCall = Benchmark.Configuration(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: 1,
    scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 50)

  // One task calls in turn: each call starts, returns, and is the latest.
  Benchmark("latest run | Pace LatestTask", configuration: perCall) { benchmark in
    let latest = LatestTask<Int>()
    var sum = 0
    for index in benchmark.scaledIterations { sum &+= try await latest.run { index &+ 1 } }
    blackHole(sum)
  }

  Benchmark("latest run | stored Task", configuration: perCall) { benchmark in
    let latest = StoredTaskLatest<Int>()
    var sum = 0
    for index in benchmark.scaledIterations { sum &+= try await latest.run { index &+ 1 } }
    blackHole(sum)
  }

  // A miss each time: every call starts the work for a new key.
  Benchmark("single-flight run | Pace SingleFlight", configuration: perCall) { benchmark in
    let flights = SingleFlight<Int, Int>()
    var sum = 0
    for index in benchmark.scaledIterations { sum &+= try await flights.run(key: index) { index &+ 1 } }
    blackHole(sum)
  }

  Benchmark("single-flight run | actor with task dictionary", configuration: perCall) { benchmark in
    let flights = TaskDictionarySingleFlight<Int, Int>()
    var sum = 0
    for index in benchmark.scaledIterations { sum &+= try await flights.run(key: index) { index &+ 1 } }
    blackHole(sum)
  }

  // Eight concurrent callers per key and round; the figure is per caller. The
  // work yields once, as real work suspends: work that returns at once is
  // over before a second caller comes, so there would be nothing to join.
  let joiners = 8
  let perCaller = Benchmark.Configuration(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: 1,
    scalingFactor: .kilo, maxDuration: .seconds(5), maxIterations: 50)

  Benchmark("single-flight join | Pace SingleFlight", configuration: perCaller) { benchmark in
    let flights = SingleFlight<Int, Int>()
    for round in 0..<(benchmark.scaledIterations.count / joiners) {
      try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<joiners {
          group.addTask {
            try await flights.run(key: round) {
              await Task.yield(); return round
            }
          }
        }
        for try await value in group { blackHole(value) }
      }
    }
  }

  Benchmark("single-flight join | actor with task dictionary", configuration: perCaller) { benchmark in
    let flights = TaskDictionarySingleFlight<Int, Int>()
    for round in 0..<(benchmark.scaledIterations.count / joiners) {
      try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<joiners {
          group.addTask {
            try await flights.run(key: round) {
              await Task.yield(); return round
            }
          }
        }
        for try await value in group { blackHole(value) }
      }
    }
  }
}
