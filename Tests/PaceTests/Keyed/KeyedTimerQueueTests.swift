//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import KeyedTimerCandidates
@testable import Pace
import Testing

/// The three timer structures of a keyed driver against a model (each
/// slot's armed deadline), driven as the driver drives them: every due
/// timer is handed out, none early, whatever its distance (sub-millisecond,
/// beyond the wheel's two years, at the end of time); after a firing the
/// earliest deadline lies in the future, so a driver never spins.
@Suite struct KeyedTimerQueueTests {
  @Test func lazyHeap() { Self.check(LazyTimerHeap.self, seed: 1) }
  @Test func eagerHeap() { Self.check(EagerTimerHeap.self, seed: 2) }
  @Test func wheel() { Self.check(TimerWheel.self, seed: 3) }

  static func check<Queue: KeyedTimerQueue>(_: Queue.Type, seed: UInt64) {
    var generator = SeededGenerator(seed: seed)
    var queue = Queue()
    var armed: [Int64?] = []  // The model: each live slot's armed deadline.
    var now: Int64 = 0
    var due: [KeyedTimerEntry] = []
    for step in 0..<3_000 {
      switch Int.random(in: 0..<10, using: &generator) {
      case 0..<4:
        // Arm a slot, new or live, as a driver would: a later deadline only if every move is followed.
        if armed.isEmpty || Bool.random(using: &generator) { armed.append(nil) }
        let slot = Int.random(in: 0..<armed.count, using: &generator)
        let distance: Int64 =
          switch Int.random(in: 0..<10, using: &generator) {
          case 0: 0
          case 1: Int64.random(in: 0..<1_000, using: &generator)  // Within a tick.
          case 2: Int64.random(in: 0..<(1 << 62), using: &generator)  // Beyond the wheel.
          case 3: Int64.max - 1 - now  // The end of time (`Int64.max` is no timer at all).
          default: Int64.random(in: 0..<5_000_000_000, using: &generator)
          }
        let (sum, overflow) = now.addingReportingOverflow(distance)
        let deadline = overflow ? Int64.max - 1 : min(sum, Int64.max - 1)
        if let current = armed[slot], current <= deadline, !Queue.followsEveryMove { continue }
        queue.arm(slot, at: deadline)
        armed[slot] = deadline
      case 4:
        // Disarm a slot.
        guard !armed.isEmpty else { continue }
        let slot = Int.random(in: 0..<armed.count, using: &generator)
        guard let deadline = armed[slot] else { continue }
        queue.disarm(slot, at: deadline)
        armed[slot] = nil
      case 5:
        // Drop a slot with no timer: the last one moves into its place.
        guard let slot = armed.indices.filter({ armed[$0] == nil }).randomElement(using: &generator) else { continue }
        let last = armed.count - 1
        armed.swapAt(slot, last)
        armed.removeLast()
        if slot != last { queue.moveSlot(from: last, to: slot, armedAt: armed[slot]) }
      case 6:
        // Rebuilt from the armed slots (as the driver does after renumbering them).
        queue.rebuild(from: armed.enumerated().compactMap { slot, deadline in deadline.map { KeyedTimerEntry(deadline: $0, slot: slot) } })
      default:
        // Time passes, by up to a few seconds or straight to the earliest deadline, and timers fire.
        if let earliest = queue.earliestDeadline, Bool.random(using: &generator) {
          #expect(earliest <= (armed.compactMap { $0 }.min() ?? .max), "step \(step): the earliest is late")
          now = max(now, earliest)
        } else {
          now += min(Int64.random(in: 0..<3_000_000_000, using: &generator), Int64.max - 1 - now)
        }
        queue.popDue(at: now, into: &due)
        for entry in due {
          #expect(entry.deadline <= now, "step \(step): handed out early")
          let slot = Int(entry.slot)
          if slot < armed.count, armed[slot] == entry.deadline { armed[slot] = nil }  // Stale entries are skipped.
        }
        due.removeAll()
        for (slot, deadline) in armed.enumerated() {
          if let deadline { #expect(deadline > now, "step \(step): slot \(slot) due at \(deadline) was not handed out at \(now)") }
        }
        if let earliest = queue.earliestDeadline { #expect(earliest > now, "step \(step): the driver would spin") }
      }
    }
  }
}
