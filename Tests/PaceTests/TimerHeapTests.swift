//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Testing

@testable import Pace

/// The heap behind the timer service, against a dictionary that knows what it should hold.
@Suite struct TimerHeapTests {
  final class Target: TimerTarget {
    let name: Int
    init(_ name: Int) { self.name = name }
    func timerFired(onTimerThread: Bool) {}
  }

  @Test func popDue_returnsTheDueTargets_earliestFirst_andKeepsTheRest() {
    var heap = TimerHeap()
    let targets = (0..<5).map(Target.init)
    for (target, deadline) in zip(targets, [50, 10, 40, 20, 30] as [Int64]) {
      heap.schedule(target, at: deadline)
    }
    var due: [any TimerTarget] = []
    heap.popDue(at: 30, into: &due)
    #expect(due.map { ($0 as! Target).name } == [1, 3, 4])
    #expect(heap.earliestDeadline == 40)
    #expect(heap.deadline(of: targets[1]) == nil)
    #expect(heap.deadline(of: targets[0]) == 50)
  }

  @Test func schedule_anArmedTarget_movesItsOneTimer() {
    var heap = TimerHeap()
    let target = Target(0)
    let other = Target(1)
    heap.schedule(target, at: 100)
    heap.schedule(other, at: 50)
    heap.schedule(target, at: 10)
    #expect(heap.count == 2)
    #expect(heap.earliestDeadline == 10)
    heap.schedule(target, at: 200)
    #expect(heap.earliestDeadline == 50)
    #expect(heap.remove(target) === target)
    #expect(heap.remove(target) == nil)
    #expect(heap.count == 1)
  }

  /// 20,000 random operations on 64 targets; after each, the heap agrees with
  /// the reference, and popping returns deadlines in order.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func randomOperations_agreeWithAReference(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    var heap = TimerHeap()
    var reference: [Int: Int64] = [:]
    let targets = (0..<64).map(Target.init)
    var now: Int64 = 0
    for _ in 0..<20_000 {
      let target = targets.randomElement(using: &random)!
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<5:
        let deadline = now + Int64.random(in: 0...1_000, using: &random)
        heap.schedule(target, at: deadline)
        reference[target.name] = deadline
      case 5..<7:
        let removed = heap.remove(target)
        #expect((removed != nil) == (reference.removeValue(forKey: target.name) != nil))
      default:
        now += Int64.random(in: 0...300, using: &random)
        var due: [any TimerTarget] = []
        heap.popDue(at: now, into: &due)
        let dueNames = due.map { ($0 as! Target).name }
        let expected = reference.filter { $0.value <= now }
        #expect(Set(dueNames) == Set(expected.keys))
        #expect(dueNames.count == expected.count)
        let deadlines = dueNames.map { reference[$0]! }
        #expect(deadlines == deadlines.sorted(), "popped out of order")
        for name in dueNames { reference[name] = nil }
      }
      #expect(heap.count == reference.count)
      #expect(heap.earliestDeadline == reference.values.min())
    }
    for target in targets {
      #expect(heap.deadline(of: target) == reference[target.name])
    }
  }
}
