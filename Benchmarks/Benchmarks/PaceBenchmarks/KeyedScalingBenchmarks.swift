//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Benchmark
import Pace

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// Keyed pacing under load: send throughput with 1, 2 and 8 sending tasks,
/// and ten million distinct keys over time with at most 10,000 live.
func registerKeyedScalingBenchmarks() {
  // MARK: Send throughput with 1, 2 and 8 sending tasks on distinct keys

  // 80,000 live keys, each with a pending value (a 600 s debounce: no timer
  // fires during the run). Each round sends 800,000 times in all, split
  // evenly among the tasks; task i cycles over keys i × 10,000 ..< (i + 1) ×
  // 10,000, its own. Each task has the same number of keys whatever the task
  // count, so that a running task's keys take the same room in the caches:
  // with the 80,000 keys split among fewer tasks, one task cycled over 80,000
  // and eight (two at a time) over 20,000, and eight came out twice as fast.
  // The task counts take turns, round by round (as `TurnsProbe` does), so
  // that a noisy moment of this shared machine falls on all of them alike.
  // Time per send is the round's wall time over its sends: throughput is its
  // inverse. With 2 cores, no more than 2 tasks run at once.
  let taskCounts = [1, 2, 8]
  let keysPerTask = 10_000
  let liveKeys = keysPerTask * taskCounts.max()!
  let sendsPerRound = 800_000
  let rounds = 5
  let perSend = taskCounts.map { keyedMetric("\($0) \($0 == 1 ? "task" : "tasks") | per send (ns)") }

  Benchmark("keyed send tasks", configuration: keyedScaleConfiguration(perSend)) { benchmark in
    let keyed = KeyedDebouncer<Int, Int>(.debounce(for: .seconds(600))) { _, _ in }
    for key in 0..<liveKeys { keyed.send(key, for: key) }
    for round in 0...rounds {  // Round 0 warms up, unrecorded.
      for turn in taskCounts.indices {
        let contender = (round + turn) % taskCounts.count
        let tasks = taskCounts[contender]
        let start = ContinuousClock.now
        await withTaskGroup(of: Void.self) { group in
          for task in 0..<tasks {
            group.addTask {
              let first = task * keysPerTask
              let end = first + keysPerTask
              var key = first
              for value in 0..<(sendsPerRound / tasks) {
                keyed.send(value, for: key)
                key += 1
                if key == end { key = first }
              }
            }
          }
        }
        let elapsed = start.duration(to: .now)
        if round > 0 { benchmark.measurement(perSend[contender], elapsed.wholeNanoseconds / sendsPerRound) }
      }
    }
    withExtendedLifetime(keyed) {}
  }

  // MARK: 10,000,000 distinct keys over time, at most 10,000 live

  // A 1 ms debounce on the real clock. The sender sends each key once; when
  // 10,000 keys are sent and not yet delivered (a counter the handler moves:
  // cheaper than `pendingCount`, which counts the keys), it sleeps until no
  // more than 5,000 are, so that it wakes for a batch, not for each key. No
  // sweep is ever called: keys go as they fire. Memory is the allocator's
  // bytes in use, over the baseline taken once the pacer ran once (its
  // threads started); the peak is sampled every 10,000 sends. The sender
  // stops after `timeLimit`, so that a slow driver costs the run a minute,
  // not many; `compare` then reports the keys reached as a miss.
  let totalKeys = 10_000_000
  let maxLive = 10_000
  let timeLimit = Duration.seconds(60)
  let heldAtEnd = keyedMetric("held at end (B)")
  let heldAtPeak = keyedMetric("held at peak (B)")
  let residentAtEnd = keyedMetric("resident at end (B)")
  let residentAtPeak = keyedMetric("resident at peak (B)")
  let keysHandled = keyedMetric("keys delivered", prefersLarger: true)
  let took = keyedMetric("took (ms)")
  let churnMetrics = [heldAtEnd, heldAtPeak, residentAtEnd, residentAtPeak, keysHandled, took]

  Benchmark("keyed churn 10M | Pace KeyedDebouncer", configuration: keyedScaleConfiguration(churnMetrics)) {
    benchmark in
    let delivered = AtomicCounter()
    let keyed = KeyedDebouncer<Int, Int>(.debounce(for: .milliseconds(1))) { _, _ in
      delivered.increment()
    }
    // Once through first, so that the baseline has the timer and delivery threads.
    keyed.send(-1, for: -1)
    while delivered.value < 1 { usleep(100) }
    ProcessMemory.releaseFreeMemory()
    let baseHeap = ProcessMemory.heapInUse
    let baseResident = ProcessMemory.resident
    var peakHeap = baseHeap
    var peakResident = baseResident
    let start = ContinuousClock.now
    var sent = 0
    while sent < totalKeys {
      // In flight: sent and not delivered (the first delivery was key -1's).
      if sent + 1 - delivered.value >= maxLive {
        repeat { usleep(100) } while sent + 1 - delivered.value > maxLive / 2
      }
      keyed.send(sent, for: sent)
      sent += 1
      if sent % 10_000 == 0 {
        peakHeap = max(peakHeap, ProcessMemory.heapInUse)
        peakResident = max(peakResident, ProcessMemory.resident)
        if start.duration(to: .now) > timeLimit { break }
      }
    }
    let deadline = ContinuousClock.now + .seconds(60)
    while delivered.value < sent + 1 {
      if ContinuousClock.now > deadline {
        fatalError("10M keys churn: only \(delivered.value - 1) of the \(sent) keys sent were delivered")
      }
      usleep(1_000)
    }
    let elapsed = start.duration(to: .now)
    precondition(keyed.pendingCount == 0, "keys still pending after every key was delivered")
    usleep(10_000)  // The delivery that handed over the last key finishes its round.
    ProcessMemory.releaseFreeMemory()
    let endHeap = ProcessMemory.heapInUse
    let endResident = ProcessMemory.resident
    withExtendedLifetime(keyed) {}  // Alive while its memory is read: what it holds counts.
    benchmark.measurement(heldAtEnd, max(0, endHeap - baseHeap))
    benchmark.measurement(heldAtPeak, max(0, peakHeap - baseHeap))
    benchmark.measurement(residentAtEnd, max(0, endResident - baseResident))
    benchmark.measurement(residentAtPeak, max(0, peakResident - baseResident))
    benchmark.measurement(keysHandled, delivered.value - 1)
    benchmark.measurement(took, elapsed.wholeNanoseconds / 1_000_000)
  }
}
