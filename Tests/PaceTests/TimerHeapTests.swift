//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Testing

@testable import Pace

/// The heap behind the timer service, against a dictionary that knows what it should hold.
@Suite struct TimerHeapTests {
  /// Timer owners whose callbacks write their name to one log.
  final class Owners: Sendable {
    let objects: [Owner]
    let log = LockedState<[Int]>([])

    final class Owner: Sendable {
      let name: Int
      init(_ name: Int) { self.name = name }
    }

    init(count: Int) {
      objects = (0..<count).map(Owner.init)
    }

    func id(_ name: Int) -> ObjectIdentifier { ObjectIdentifier(objects[name]) }

    func fire(_ name: Int) -> TimerCallback {
      { [log] _ in
        log.withLock { $0.append(name) }
        return nil
      }
    }

    /// Calls `due` in order; returns the names they logged.
    func names(calling due: [TimerCallback]) -> [Int] {
      log.withLock { $0 = [] }
      for fire in due { _ = fire(false) }
      return log.withLock { $0 }
    }
  }

  @Test func popDue_returnsTheDueCallbacks_earliestFirst_andKeepsTheRest() {
    let owners = Owners(count: 5)
    var heap = TimerHeap()
    for (name, deadline) in zip(0..., [50, 10, 40, 20, 30] as [Int64]) {
      heap.schedule(owners.id(name), at: deadline, fire: owners.fire(name))
    }
    var due: [TimerCallback] = []
    heap.popDue(at: 30, into: &due)
    #expect(owners.names(calling: due) == [1, 3, 4])
    #expect(heap.earliestDeadline == 40)
    #expect(heap.deadline(of: owners.id(1)) == nil)
    #expect(heap.deadline(of: owners.id(0)) == 50)
  }

  @Test func schedule_anArmedOwner_movesItsOneTimer_andReplacesItsCallback() {
    let owners = Owners(count: 2)
    var heap = TimerHeap()
    #expect(heap.schedule(owners.id(0), at: 100, fire: owners.fire(0)) == nil)
    heap.schedule(owners.id(1), at: 50, fire: owners.fire(1))
    #expect(heap.schedule(owners.id(0), at: 10, fire: owners.fire(0)) != nil)
    #expect(heap.count == 2)
    #expect(heap.earliestDeadline == 10)
    heap.schedule(owners.id(0), at: 200, fire: owners.fire(0))
    #expect(heap.earliestDeadline == 50)
    #expect(heap.remove(owners.id(0)) != nil)
    #expect(heap.remove(owners.id(0)) == nil)
    #expect(heap.count == 1)
  }

  /// 20,000 random operations on 64 owners; after each, the heap agrees with
  /// the reference, and popping returns deadlines in order.
  @Test(arguments: [1, 2, 3] as [UInt64])
  func randomOperations_agreeWithAReference(seed: UInt64) {
    var random = SeededGenerator(seed: seed)
    let owners = Owners(count: 64)
    var heap = TimerHeap()
    var reference: [Int: Int64] = [:]
    var now: Int64 = 0
    for _ in 0..<20_000 {
      let name = Int.random(in: 0..<64, using: &random)
      switch Int.random(in: 0..<10, using: &random) {
      case 0..<5:
        let deadline = now + Int64.random(in: 0...1_000, using: &random)
        heap.schedule(owners.id(name), at: deadline, fire: owners.fire(name))
        reference[name] = deadline
      case 5..<7:
        let removed = heap.remove(owners.id(name))
        #expect((removed != nil) == (reference.removeValue(forKey: name) != nil))
      default:
        now += Int64.random(in: 0...300, using: &random)
        var due: [TimerCallback] = []
        heap.popDue(at: now, into: &due)
        let dueNames = owners.names(calling: due)
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
    var heap = TimerHeap()
    for name in 0..<1_000 {
      heap.schedule(owners.id(name), at: Int64(name), fire: owners.fire(name))
    }
    #expect(heap.entries.capacity >= 1_000)
    var due: [TimerCallback] = []
    heap.popDue(at: 10_000, into: &due)
    #expect(due.count == 1_000)
    #expect(heap.count == 0)
    #expect(heap.entries.capacity <= TimerHeap.retainedCapacity)
  }
}
