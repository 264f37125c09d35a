//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@testable import Pace
import Testing

/// The keyed driver's table of live keys against a `Dictionary`: the same
/// keys found, in slots that stay dense, and memory given back as keys go.
@Suite struct KeyedSlotsTests {
  /// A key whose hash is chosen by the test, so that keys collide.
  struct CollidingKey: Hashable {
    let id: Int
    let hash: Int
    func hash(into hasher: inout Hasher) { hasher.combine(hash) }
    static func == (lhs: Self, rhs: Self) -> Bool { lhs.id == rhs.id }
  }

  @Test(arguments: [1, 7, 1_000])
  func randomInsertionsAndRemovals_findTheSameKeysAsADictionary(hashes: Int) {
    var generator = SeededGenerator(seed: UInt64(hashes))
    var slots = KeyedSlots<CollidingKey, Int>()
    var model: [Int: Int] = [:]  // id → machine
    for step in 0..<6_000 {
      let id = Int.random(in: 0..<2_000, using: &generator)
      let key = CollidingKey(id: id, hash: id % hashes)
      if let slot = slots.slot(of: key) {
        #expect(slots[slot].machine == model[id], "step \(step)")
        if Bool.random(using: &generator) {
          slots.remove(at: slot)
          model[id] = nil
        } else {
          slots[slot].machine = step
          model[id] = step
        }
      } else {
        #expect(model[id] == nil, "step \(step)")
        _ = slots.insert(key, machine: step)
        model[id] = step
      }
      #expect(slots.count == model.count)
    }
    for (id, machine) in model {
      let slot = slots.slot(of: CollidingKey(id: id, hash: id % hashes))
      #expect(slot.map { slots[$0].machine } == machine)
    }
    #expect(Set(slots.slots.map(\.key.id)) == Set(model.keys))
  }

  @Test func removingEveryKey_givesItsMemoryBack() {
    var slots = KeyedSlots<Int, Int>()
    for key in 0..<30_000 { _ = slots.insert(key, machine: key) }
    #expect(slots.capacity.buckets >= 30_000 * 4 / 3)
    var found = 0
    for key in 0..<30_000 {
      guard let slot = slots.slot(of: key) else { continue }
      #expect(slots[slot].machine == key)
      slots.remove(at: slot)
      found += 1
      if key == 27_000 { #expect(slots.capacity.slots < 30_000 && slots.capacity.buckets < 4 * 30_000) }
    }
    #expect(found == 30_000 && slots.count == 0)
    #expect(slots.capacity.slots <= 64 && slots.capacity.buckets <= 128)
  }

  @Test func removingManySlotsInOnePass_keepsTheOthersFindable() {
    var slots = KeyedSlots<Int, Int>()
    for key in 0..<10_000 { _ = slots.insert(key, machine: key) }
    slots.remove(slots: (0..<10_000).filter { slots[$0].key % 5 != 0 })
    #expect(slots.count == 2_000 && slots.capacity.buckets < 4 * 10_000)
    for key in 0..<10_000 {
      let slot = slots.slot(of: key)
      #expect((slot != nil) == key.isMultiple(of: 5), "key \(key)")
      if let slot { #expect(slots[slot].machine == key) }
    }
  }
}
