//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import AsyncAlgorithms
import Benchmark
import Dispatch
import Pace
import Peers

#if canImport(Glibc)
  import Glibc
#endif

// Every figure for Pace is paired with its peers in the same run. Names are
// "<group> | <contender>", which `compare` reads to build its table.

let sendMetrics: [BenchmarkMetric] = [.wallClock, .cpuTotal, .mallocCountTotal, .peakMemoryResident]

/// How late a trailing call came after its deadline, in µs (unscaled, so that
/// the exported percentiles keep every microsecond).
let lateMetric = BenchmarkMetric.custom("late (µs)", polarity: .prefersSmaller, useScalingFactor: false)

let benchmarks: @Sendable () -> Void = {
  let send = Benchmark.Configuration(
    metrics: sendMetrics, timeUnits: .nanoseconds, warmupIterations: 5, scalingFactor: .kilo,
    maxDuration: .seconds(2), maxIterations: 2_000)

  // MARK: Closure debounce: send in steady state (timer armed), 50 ms interval

  Benchmark("debounce send | Pace Debouncer", configuration: send) { benchmark in
    let debouncer = Debouncer<Int>(for: .milliseconds(50)) { blackHole($0) }
    SendProbe.measure(benchmark) { debouncer.send($0) }
  }

  Benchmark("debounce send | DispatchWorkItem", configuration: send) { benchmark in
    let debounce = WorkItemDebounce(milliseconds: 50, queue: DispatchQueue(label: "peer.debounce")) { blackHole($0) }
    SendProbe.measure(benchmark) { _ in debounce.run() }  // The article's pattern passes no value.
  }

  Benchmark("debounce send | OpenCombine", configuration: send) { benchmark in
    let debounce = CombineDebounce(milliseconds: 50, queue: DispatchQueue(label: "peer.combine")) { blackHole($0) }
    SendProbe.measure(benchmark) { debounce.send($0) }
  }

  // MARK: Closure throttle: send, 50 ms interval

  Benchmark("throttle send | Pace Throttler", configuration: send) { benchmark in
    let throttler = Throttler<Int>(for: .milliseconds(50)) { blackHole($0) }
    SendProbe.measure(benchmark) { throttler.send($0) }
  }

  Benchmark("throttle send | DispatchWorkItem", configuration: send) { benchmark in
    let throttle = WorkItemThrottle(milliseconds: 50, queue: DispatchQueue(label: "peer.throttle")) { blackHole($0) }
    SendProbe.measure(benchmark) { _ in throttle.run() }
  }

  Benchmark("throttle send | OpenCombine", configuration: send) { benchmark in
    let throttle = CombineThrottle(milliseconds: 50, queue: DispatchQueue(label: "peer.combine")) { blackHole($0) }
    SendProbe.measure(benchmark) { throttle.send($0) }
  }

  // MARK: A whole burst: one send, the timer fires, the handler runs; 1 ms interval

  // Allocations only (see `BurstProbe`): the time is the interval.
  let burst = Benchmark.Configuration(
    metrics: [.mallocCountTotal], warmupIterations: 5, scalingFactor: .one, maxDuration: .seconds(2),
    maxIterations: 300)

  // By default the handler runs on one of Pace's delivery threads (never on
  // the shared timer thread); `.inline` runs it on the timer thread.
  Benchmark("debounce burst | Pace Debouncer", configuration: burst) { benchmark in
    BurstProbe.countAllocations(benchmark) { called in
      let debouncer = Debouncer<Int>(for: .milliseconds(1)) { _ in called.signal() }
      return { debouncer.send(1) }
    }
  }

  Benchmark("debounce burst | Pace Debouncer inline", configuration: burst) { benchmark in
    BurstProbe.countAllocations(benchmark) { called in
      let debouncer = Debouncer<Int>(for: .milliseconds(1), delivery: .inline) { _ in called.signal() }
      return { debouncer.send(1) }
    }
  }

  Benchmark("debounce burst | DispatchWorkItem", configuration: burst) { benchmark in
    BurstProbe.countAllocations(benchmark) { called in
      let debounce = WorkItemDebounce(milliseconds: 1, queue: DispatchQueue(label: "peer.burst")) { _ in called.signal() }
      return { debounce.run() }
    }
  }

  Benchmark("debounce burst | OpenCombine", configuration: burst) { benchmark in
    BurstProbe.countAllocations(benchmark) { called in
      let debounce = CombineDebounce(milliseconds: 1, queue: DispatchQueue(label: "peer.burst")) { _ in called.signal() }
      return { debounce.send(1) }
    }
  }

  // MARK: The policies alone: the floor (no clock, no lock)

  Benchmark("policy | DebounceStateMachine, 64-bit instant", configuration: send) { benchmark in
    var machine = DebounceStateMachine<Int, NanosecondInstant>(interval: .init(nanoseconds: 50_000_000))
    let now = NanosecondInstant(nanoseconds: 1)
    for value in benchmark.scaledIterations { blackHole(machine.valueReceived(value, at: now)) }
  }

  Benchmark("policy | ThrottleStateMachine, 64-bit instant", configuration: send) { benchmark in
    var machine = ThrottleStateMachine<Int, NanosecondInstant>(interval: .init(nanoseconds: 50_000_000))
    let now = NanosecondInstant(nanoseconds: 1)
    for value in benchmark.scaledIterations { blackHole(machine.valueReceived(value, at: now)) }
  }

  Benchmark("policy | DebounceStateMachine, ContinuousClock.Instant", configuration: send) { benchmark in
    var machine = DebounceStateMachine<Int, ContinuousClock.Instant>(interval: .milliseconds(50))
    let now = ContinuousClock.now
    for value in benchmark.scaledIterations { blackHole(machine.valueReceived(value, at: now)) }
  }

  Benchmark("policy | ThrottleStateMachine, ContinuousClock.Instant", configuration: send) { benchmark in
    var machine = ThrottleStateMachine<Int, ContinuousClock.Instant>(interval: .milliseconds(50))
    let now = ContinuousClock.now
    for value in benchmark.scaledIterations { blackHole(machine.valueReceived(value, at: now)) }
  }

  // MARK: AsyncSequence throughput, per element, 1,000,000 elements a run

  let throughput = Benchmark.Configuration(
    metrics: [.wallClock, .cpuTotal, .mallocCountTotal], timeUnits: .nanoseconds, warmupIterations: 1,
    scalingFactor: .mega, maxDuration: .seconds(10), maxIterations: 5)

  Benchmark("debounce immediate base | Pace debounced", configuration: throughput) { benchmark in
    for await value in ImmediateSequence(count: benchmark.scaledIterations.count).debounced(for: .milliseconds(50))
    {
      blackHole(value)
    }
  }

  Benchmark("debounce immediate base | AsyncAlgorithms debounce", configuration: throughput) { benchmark in
    for await value in ImmediateSequence(count: benchmark.scaledIterations.count).debounce(for: .milliseconds(50)) {
      blackHole(value)
    }
  }

  // A 1 ms window, so that windows end during the run (it lasts about 50 ms)
  // and the wait for the last one (the finish rule) is at most 1 ns an element.
  // With 50 ms, the figure came in steps of 50 ns: whether the run ended in
  // the first window or the second.
  Benchmark("throttle immediate base | Pace throttled", configuration: throughput) { benchmark in
    for await value in ImmediateSequence(count: benchmark.scaledIterations.count).throttled(for: .milliseconds(1))
    {
      blackHole(value)
    }
  }

  Benchmark("throttle immediate base | AsyncAlgorithms _throttle", configuration: throughput) { benchmark in
    for await value in ImmediateSequence(count: benchmark.scaledIterations.count)._throttle(for: .milliseconds(1)) {
      blackHole(value)
    }
  }

  Benchmark("debounce stream base | Pace debounced", configuration: throughput) { benchmark in
    let stream = producedStream(count: benchmark.scaledIterations.count)
    for await value in stream.debounced(for: .milliseconds(50)) { blackHole(value) }
  }

  Benchmark("debounce stream base | AsyncAlgorithms debounce", configuration: throughput) { benchmark in
    let stream = producedStream(count: benchmark.scaledIterations.count)
    for await value in stream.debounce(for: .milliseconds(50)) { blackHole(value) }
  }

  Benchmark("throttle stream base | Pace throttled", configuration: throughput) { benchmark in
    let stream = producedStream(count: benchmark.scaledIterations.count)
    for await value in stream.throttled(for: .milliseconds(50)) { blackHole(value) }
  }

  Benchmark("throttle stream base | AsyncAlgorithms _throttle", configuration: throughput) { benchmark in
    let stream = producedStream(count: benchmark.scaledIterations.count)
    for await value in stream._throttle(for: .milliseconds(50)) { blackHole(value) }
  }

  registerMapLatestBenchmarks()  // mapLatest per element, against AsyncAlgorithms' flatMapLatest (its own file)
  registerTaskCoordinationBenchmarks()  // LatestTask and SingleFlight per call, against the hand-rolled ways
  registerKeyedBenchmarks()  // keyed pacing at 1M live keys: memory per key, send to random and hot keys
  registerKeyedTimerBenchmarks()  // 1M keyed deadlines: lateness spread over 10 s; all due at one instant
  registerKeyedScalingBenchmarks()  // keyed send with 1, 2, 8 tasks; 10M keys churning through 10,000 live
  registerKeyedPeerBenchmarks()  // per-key Debouncer, DispatchWorkItem and Task at 1M keys, to a memory cap

  // MARK: Fire latency: how late the trailing call comes after its deadline

  let latencyMetrics = LatencyProbe.contenders.map(LatencyProbe.lateMetric(of:))
  let latency = Benchmark.Configuration(
    metrics: latencyMetrics, timeUnits: .microseconds,
    units: Dictionary(uniqueKeysWithValues: latencyMetrics.map { ($0, .count) }), warmupIterations: 0,
    scalingFactor: .one, maxDuration: .seconds(120), maxIterations: 1)

  // The contenders take turns, burst by burst, so that each meets the same
  // moments of this shared machine's noise (see `LatencyProbe.recordInTurns`).
  Benchmark("fire latency", configuration: latency) { benchmark in
    let workItemQueue = DispatchQueue(label: "peer.latency.work-item")
    let combineQueue = DispatchQueue(label: "peer.latency.combine")
    await LatencyProbe.recordInTurns(benchmark, [
      "Pace Debouncer": { deadline, done in
        let debouncer = Debouncer<Int>(for: LatencyProbe.interval) { if $0 == 1 { done() } }
        deadline(ContinuousClock.now + LatencyProbe.interval)
        debouncer.send(1)
        return debouncer
      },
      "Pace Debouncer inline": { deadline, done in
        let debouncer = Debouncer<Int>(for: LatencyProbe.interval, delivery: .inline) { if $0 == 1 { done() } }
        deadline(ContinuousClock.now + LatencyProbe.interval)
        debouncer.send(1)
        return debouncer
      },
      "DispatchWorkItem": { deadline, done in
        let debounce = WorkItemDebounce(milliseconds: LatencyProbe.milliseconds, queue: workItemQueue) { _ in done() }
        deadline(ContinuousClock.now + LatencyProbe.interval)
        debounce.run()
        return debounce
      },
      "OpenCombine": { deadline, done in
        let debounce = CombineDebounce(milliseconds: LatencyProbe.milliseconds, queue: combineQueue) { _ in done() }
        deadline(ContinuousClock.now + LatencyProbe.interval)
        debounce.send(1)
        return debounce
      },
      "bare timerfd (reference)": { deadline, done in
        deadline(ContinuousClock.now + LatencyProbe.interval)
        BareTimerThread.shared.wait(LatencyProbe.interval, then: done)
        return BareTimerThread.shared
      },
    ])
  }

  // MARK: After a burst of 1,000,000 sends, how late the one trailing call comes

  let afterBurst = Benchmark.Configuration(
    metrics: [lateMetric], timeUnits: .microseconds, units: [lateMetric: .count], warmupIterations: 0,
    scalingFactor: .one, maxDuration: .seconds(60), maxIterations: 3)

  Benchmark("late after 1M sends | Pace Debouncer", configuration: afterBurst) { benchmark in
    let late = await LatencyProbe.measureOnce { deadline, done in
      let debouncer = Debouncer<Int>(for: LatencyProbe.interval) { if $0 == 1_000_000 { done() } }
      for value in 0..<1_000_000 { debouncer.send(value) }
      deadline(ContinuousClock.now + LatencyProbe.interval)
      debouncer.send(1_000_000)
      return debouncer
    }
    benchmark.measurement(lateMetric, late)
  }

  Benchmark("late after 1M sends | DispatchWorkItem", configuration: afterBurst) { benchmark in
    let late = await LatencyProbe.measureOnce { deadline, done in
      // The pattern passes no value: the call that counts is the first after the last run().
      let lastRun = LatencyProbe.Flag()
      let debounce = WorkItemDebounce(milliseconds: LatencyProbe.milliseconds, queue: DispatchQueue(label: "peer")) {
        _ in if lastRun.isSet { done() }
      }
      for _ in 0..<1_000_000 { debounce.run() }
      deadline(ContinuousClock.now + LatencyProbe.interval)
      lastRun.set()
      debounce.run()
      return debounce
    }
    benchmark.measurement(lateMetric, late)
  }

  // MARK: Memory: bytes held per pacer, 100,000 of them (compare divides by 100,000)

  let memory = Benchmark.Configuration(
    metrics: [.memoryLeakedBytes, .mallocCountTotal], timeUnits: .nanoseconds,
    units: [.memoryLeakedBytes: .count, .mallocCountTotal: .count], warmupIterations: 0,
    scalingFactor: .one, maxDuration: .seconds(30), maxIterations: 3)

  Benchmark("memory idle | Pace Debouncer", configuration: memory) { benchmark in
    MemoryProbe.hold(benchmark) { _ in Debouncer<Int>(for: .milliseconds(50)) { _ in } }
  }

  Benchmark("memory idle | DispatchWorkItem", configuration: memory) { benchmark in
    let queue = DispatchQueue(label: "peer.memory")
    MemoryProbe.hold(benchmark) { _ in WorkItemDebounce(milliseconds: 50, queue: queue) { _ in } }
  }

  Benchmark("memory pending | Pace Debouncer", configuration: memory) { benchmark in
    MemoryProbe.hold(benchmark) { value in
      let debouncer = Debouncer<Int>(for: .seconds(60)) { _ in }
      debouncer.send(value)
      return debouncer
    }
  }

  Benchmark("memory pending | DispatchWorkItem", configuration: memory) { benchmark in
    let queue = DispatchQueue(label: "peer.memory")
    MemoryProbe.hold(benchmark) { _ in
      let debounce = WorkItemDebounce(milliseconds: 60_000, queue: queue) { _ in }
      debounce.run()
      return debounce
    }
  }
}

/// An `AsyncStream` of `0..<count`, fed by a producer task as fast as it goes.
func producedStream(count: Int) -> AsyncStream<Int> {
  let (stream, continuation) = AsyncStream<Int>.makeStream()
  Task {
    for value in 0..<count { continuation.yield(value) }
    continuation.finish()
  }
  return stream
}
