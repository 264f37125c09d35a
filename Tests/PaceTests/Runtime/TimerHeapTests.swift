//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Testing

@testable import Pace

/// The heap behind the kernel timer scheduler, against a dictionary that knows what it should hold.
@Suite struct TimerHeapTests {
  typealias Heap = TimerHeap<ObjectIdentifier, Owners.Owner>

  /// Timer owners that know their name, and whose callbacks write it to one log.
  final class Owners: Sendable {
    let objects: [Owner]

    final class Owner: Sendable {
      let name: Int
      let log: LockedState<[Int]>
      init(_ name: Int, log: LockedState<[Int]>) { (self.name, self.log) = (name, log) }
    }

    init(count: Int) {
      let log = LockedState<[Int]>([])
      objects = (0..<count).map { Owner($0, log: log) }
    }

    func id(_ name: Int) -> ObjectIdentifier { ObjectIdentifier(objects[name]) }
    func owner(_ name: Int) -> Owner { objects[name] }

    /// Pops everything due at `now`, calling each as the timer thread does;
    /// returns the names they logged, in order.
    func popDue(_ heap: inout Heap, at now: Int64) -> [Int] {
      var names: [Int] = []
      while let due = heap.popFirst(dueAt: now) { names.append(due.payload.name) }
      return names
    }
  }

  @Test func popFirst_takesTheDueTimers_earliestFirst_andKeepsTheRest() {
    let owners = Owners(count: 5)
    var heap = Heap()
    for (name, deadline) in zip(0..., [50, 10, 40, 20, 30] as [Int64]) {
      heap.arm(owners.id(name), at: deadline, payload: owners.owner(name))
    }
    #expect(owners.popDue(&heap, at: 30) == [1, 3, 4])
    #expect(heap.earliestDeadline == 40)
    #expect(heap.deadline(of: owners.id(1)) == nil)
    #expect(heap.deadline(of: owners.id(0)) == 50)
  }

  @Test func arm_anArmedOwner_movesItsOneTimer() {
    let owners = Owners(count: 2)
    var heap = Heap()
    #expect(heap.arm(owners.id(0), at: 100, payload: owners.owner(0)) == nil)
    heap.arm(owners.id(1), at: 50, payload: owners.owner(1))
    #expect(heap.arm(owners.id(0), at: 10, payload: owners.owner(0))?.name == 0)
    #expect(heap.count == 2)
    #expect(heap.earliestDeadline == 10)
    heap.arm(owners.id(0), at: 200, payload: owners.owner(0))
    #expect(heap.earliestDeadline == 50)
    #expect(heap.disarm(owners.id(0)) != nil)
    #expect(heap.disarm(owners.id(0)) == nil)
    #expect(heap.count == 1)
  }

  /// 20,000 random operations on 64 owners; after each, the heap agrees with
  /// the reference, and popping returns deadlines in order.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func randomOperations_agreeWithAReference(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let owners = Owners(count: 64)
    var heap = Heap()
    var reference: [Int: Int64] = [:]
    var now: Int64 = 0
    for _ in 0..<20_000 {
      let name = Int.random(in: 0..<64, using: &random)
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<5:
        let deadline = now + Int64.random(in: 0...1_000, using: &random)
        heap.arm(owners.id(name), at: deadline, payload: owners.owner(name))
        reference[name] = deadline
      case 5..<7:
        let removed = heap.disarm(owners.id(name))
        #expect((removed != nil) == (reference.removeValue(forKey: name) != nil))
      default:
        now += Int64.random(in: 0...300, using: &random)
        let dueNames = owners.popDue(&heap, at: now)
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
    for name in 0..<64 {
      #expect(heap.deadline(of: owners.id(name)) == reference[name])
    }
  }

  @Test func emptyingALargeHeap_freesItsStorage() {
    let owners = Owners(count: 1_000)
    var heap = Heap()
    for name in 0..<1_000 {
      heap.arm(owners.id(name), at: Int64(name), payload: owners.owner(name))
    }
    #expect(heap.entries.capacity >= 1_000)
    #expect(owners.popDue(&heap, at: 10_000).count == 1_000)
    #expect(heap.count == 0)
    #expect(heap.entries.capacity <= Heap.retainedCapacity)
  }
}
