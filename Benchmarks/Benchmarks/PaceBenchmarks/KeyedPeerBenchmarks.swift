//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Benchmark
import Dispatch
import Pace
import Peers

#if canImport(Glibc)
  import Glibc
#elseif canImport(Darwin)
  import Darwin
#endif

/// The ways users pace per key without Pace, at a million keys each with a
/// pending value, beside Pace's keyed debouncer measured the same way: each
/// fills keys until it holds 1,000,000 or its resident memory grew by 1 GiB,
/// whichever comes first, and reports where it stopped and its bytes per key.
///
/// Each benchmark runs in a process of its own (package-benchmark starts one
/// per benchmark), so one's memory is never another's baseline. The pending
/// work is never run or cancelled: the process ends with the benchmark.
func registerKeyedPeerBenchmarks() {
  let keysReached = keyedMetric("keys reached", prefersLarger: true)
  let bytesPerKey = keyedMetric("bytes per key")
  let configuration = keyedScaleConfiguration([keysReached, bytesPerKey])

  func report(_ benchmark: Benchmark, _ filled: MemoryCapProbe.Filled) {
    benchmark.measurement(keysReached, filled.keys)
    benchmark.measurement(bytesPerKey, filled.bytes / max(1, filled.keys))
  }

  Benchmark("keyed peers 1M | Pace KeyedDebouncer", configuration: configuration) { benchmark in
    let keyed = KeyedDebouncer<Int, Int>(.debounce(for: .seconds(600))) { _, _ in }
    let filled = await MemoryCapProbe.fill { key in keyed.send(key, for: key) }
    withExtendedLifetime(keyed) {}
    report(benchmark, filled)
  }

  // One `Debouncer` per key in a dictionary, each sent one value.
  Benchmark("keyed peers 1M | Debouncer per key", configuration: configuration) { benchmark in
    var debouncers: [Int: Debouncer<Int>] = [:]
    let filled = await MemoryCapProbe.fill { key in
      let debouncer = Debouncer<Int>(for: .seconds(600)) { _ in }
      debouncer.send(key)
      debouncers[key] = debouncer
    }
    withExtendedLifetime(debouncers) {}
    report(benchmark, filled)
  }

  // The article's work-item debounce per key: a dictionary of work items,
  // each send cancelling the key's item and scheduling a new one (`asyncAfter`).
  Benchmark("keyed peers 1M | DispatchWorkItem per key", configuration: configuration) { benchmark in
    let debounce = KeyedWorkItemDebounce<Int>(milliseconds: 600_000, queue: DispatchQueue(label: "peer.keyed")) { _, _ in }
    let filled = await MemoryCapProbe.fill { key in debounce.run(key, for: key) }
    withExtendedLifetime(debounce) {}
    report(benchmark, filled)
  }

  // A sleeping task per key, in a dictionary, cancelled and replaced on each send.
  Benchmark("keyed peers 1M | Task per key", configuration: configuration) { benchmark in
    var tasks: [Int: Task<Void, Never>] = [:]
    let filled = await MemoryCapProbe.fill { key in
      tasks[key]?.cancel()
      tasks[key] = Task {
        do {
          try await Task.sleep(for: .seconds(3600))
          blackHole(key)
        } catch {}
      }
    }
    withExtendedLifetime(tasks) {}
    report(benchmark, filled)
  }
}

/// Fills keys until a target count or a cap on resident memory growth.
enum MemoryCapProbe {
  static let targetKeys = 1_000_000
  static let cap = 1 << 30  // 1 GiB of resident memory growth

  struct Filled {
    /// The keys filled: `targetKeys`, or fewer if the cap came first.
    var keys: Int
    /// Resident memory growth once what other threads do for those keys
    /// (tasks starting to sleep, timers registered) has settled.
    var bytes: Int
  }

  /// Calls `insert` for keys 0, 1, 2, … until `targetKeys` or until
  /// resident memory grew by `cap` (checked every 10,000 keys), then waits
  /// until resident memory settles (what runs on other threads for those
  /// keys: a task's first steps, a timer's registration) and measures.
  static func fill(_ insert: (Int) -> Void) async -> Filled {
    ProcessMemory.releaseFreeMemory()
    let base = ProcessMemory.resident
    var keys = 0
    while keys < targetKeys {
      insert(keys)
      keys += 1
      if keys % 10_000 == 0, ProcessMemory.resident - base >= cap { break }
    }
    var resident = ProcessMemory.resident
    for _ in 0..<50 {  // At most 5 s: settled when it grew by less than 1 MiB in 100 ms.
      try? await Task.sleep(for: .milliseconds(100))
      let now = ProcessMemory.resident
      defer { resident = now }
      if now - resident < 1 << 20 { break }
    }
    return Filled(keys: keys, bytes: resident - base)
  }
}
