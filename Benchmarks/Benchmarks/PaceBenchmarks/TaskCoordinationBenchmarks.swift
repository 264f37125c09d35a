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
  //
  // The two contenders take turns, round by round, as the fire latency
  // benchmark's do: run one after the other, each met its own seconds of this
  // shared machine, and the ratio of the same code swung from 0.67× to 1.28×
  // over three runs. In turns, a noisy moment falls on both alike.
  let joiners = 8
  let joinRounds = 4_000
  let joinContenders = ["Pace SingleFlight", "actor with task dictionary"]
  let joinMetrics = joinContenders.map {
    BenchmarkMetric.custom("\($0) | per caller (ns)", polarity: .prefersSmaller, useScalingFactor: false)
  }
  let inTurns = Benchmark.Configuration(
    metrics: joinMetrics, timeUnits: .nanoseconds,
    units: Dictionary(uniqueKeysWithValues: joinMetrics.map { ($0, .count) }), warmupIterations: 0,
    scalingFactor: .one, maxDuration: .seconds(120), maxIterations: 1)

  Benchmark("single-flight join", configuration: inTurns) { benchmark in
    let pace = SingleFlight<Int, Int>()
    let actor = TaskDictionarySingleFlight<Int, Int>()
    func round(of contender: Int, key: Int) async throws {
      try await withThrowingTaskGroup(of: Int.self) { group in
        for _ in 0..<joiners {
          group.addTask {
            let work: @Sendable () async throws -> Int = {
              await Task.yield()
              return key
            }
            return contender == 0 ? try await pace.run(key: key, work) : try await actor.run(key: key, work)
          }
        }
        for try await value in group { blackHole(value) }
      }
    }
    // The first rounds warm both up and are not recorded.
    let warmUp = 50
    for key in 0..<(warmUp + joinRounds) {
      for turn in 0..<joinContenders.count {
        let contender = (key + turn) % joinContenders.count
        let start = ContinuousClock.now
        try await round(of: contender, key: key)
        let perCaller = start.duration(to: .now) / joiners
        if key >= warmUp { benchmark.measurement(joinMetrics[contender], Int(perCaller / .nanoseconds(1))) }
      }
    }
  }
}
