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

  /// A key whose `hashValue` is chosen by the test, bit for bit (as
  /// swift-collections' test keys do), for the places and tags of
  /// ``KeyedSlots/recent``.
  struct RawHashKey: Hashable {
    let id: Int
    let raw: Int
    func hash(into hasher: inout Hasher) { hasher.combine(raw) }
    func _rawHashValue(seed: Int) -> Int { raw }
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

  /// Four keys whose hashes share a set of the recent-slot table all stay
  /// noted, whichever was found last; a fifth evicts the one found longest
  /// ago. (Direct-mapped, each would evict the one before.)
  @Test func fourKeysInOneSet_allStayNoted_aFifthEvictsTheOldest() {
    var slots = KeyedSlots<RawHashKey, Int>(recentFromBuckets: 1 << 12)
    // Keys 0-4 share set 20 (the hash's upper half) with distinct tags; the others spread.
    let key = { (id: Int) in RawHashKey(id: id, raw: (id < 5 ? 20 : id &* 8) << 32 | (id &+ 1) &* 0x9E37) }
    for id in 0..<10_000 { _ = slots.insert(key(id), machine: id) }
    let set = KeyedSlots<RawHashKey, Int>.recentSet(of: key(0).hashValue, count: slots.recent.count)
    #expect((0..<5).allSatisfy { KeyedSlots<RawHashKey, Int>.recentSet(of: key($0).hashValue, count: slots.recent.count) == set })
    func noted(_ id: Int) -> Bool {
      let entry = KeyedSlots<RawHashKey, Int>.recentEntry(slot: slots.slot(of: key(id))!, hash: key(id).hashValue)
      return slots.recent[set..<set + KeyedSlots<RawHashKey, Int>.recentWays].contains(entry)
    }
    for id in 0..<4 { #expect(slots.find(key(id), hash: key(id).hashValue) != nil) }
    #expect((0..<4).allSatisfy(noted))
    for id in [2, 0, 3, 1] { #expect(slots.find(key(id), hash: key(id).hashValue) != nil) }  // Hits: nothing moves out.
    #expect((0..<4).allSatisfy(noted))
    #expect(slots.find(key(4), hash: key(4).hashValue) != nil)
    #expect(noted(4) && !noted(0) && [1, 2, 3].allSatisfy(noted))  // 0 was noted first of the four.
  }

  /// A table that notes recent keys' slots (from an index of 4,096 buckets
  /// here, rather than the default million): `find` answers as
  /// the index does, with entries left stale by removals (a moved slot, a
  /// removed key; slots renumbered in one pass clear the table) and keys
  /// whose entries overwrite each other: all in seven sets of four
  /// (`sharedPlaces`), or two keys to each hash (so the same set and tag).
  @Test(arguments: [true, false])
  func findingThroughRecentSlots_agreesWithTheIndex(sharedPlaces: Bool) {
    var generator = SeededGenerator(seed: sharedPlaces ? 1 : 2)
    var slots = KeyedSlots<RawHashKey, Int>(recentFromBuckets: 1 << 12)
    var model: [Int: Int] = [:]  // id → machine
    let key = { (id: Int) in
      RawHashKey(id: id, raw: sharedPlaces ? (id % 7) << 34 | id &* 0x9E37 : (id / 2) &* 0x1E37_79B9_7F4A_7C15)
    }
    #expect(key(3).hashValue == key(3).raw)
    for id in 0..<10_000 {
      _ = slots.insert(key(id), machine: id)
      model[id] = id
    }
    #expect(!slots.recent.isEmpty)
    func check(_ id: Int, _ step: Int) {
      let hash = key(id).hashValue
      let found = slots.find(key(id), hash: hash)
      #expect(found == slots.slot(of: key(id)), "step \(step), id \(id)")
      #expect(found.map { slots[$0].machine } == model[id], "step \(step), id \(id)")
      if let found, !slots.recent.isEmpty {
        // Noted: the next find of this key takes its slot from the table.
        let set = KeyedSlots<RawHashKey, Int>.recentSet(of: hash, count: slots.recent.count)
        let ways = set..<set + KeyedSlots<RawHashKey, Int>.recentWays
        #expect(slots.recent[ways].contains(KeyedSlots<RawHashKey, Int>.recentEntry(slot: found, hash: hash)), "step \(step)")
      }
    }
    for step in 0..<60_000 {
      // Mostly a hot set, so that entries are reused; removals and
      // insertions move slots under them.
      let id = Bool.random(using: &generator) ? Int.random(in: 0..<500, using: &generator) : Int.random(in: 0..<12_000, using: &generator)
      check(id, step)
      switch Int.random(in: 0..<4, using: &generator) {
      case 0:
        if let slot = slots.find(key(id), hash: key(id).hashValue) {
          slots.remove(at: slot)
          model[id] = nil
        }
      case 1 where model[id] == nil:
        _ = slots.insert(key(id), machine: step)
        model[id] = step
      default:
        if let slot = slots.find(key(id), hash: key(id).hashValue) {
          slots[slot].machine = step
          model[id] = step
        }
      }
      if step == 30_000 {
        // Renumbered in one pass: every third key goes.
        let doomed = (0..<slots.count).filter { slots[$0].key.id % 3 == 0 }
        for slot in doomed { model[slots[slot].key.id] = nil }
        slots.remove(slots: doomed)
      }
    }
    #expect(slots.count == model.count)
    for id in 0..<12_000 { check(id, -1) }
    slots.removeAll()
    #expect(slots.recent.isEmpty && slots.find(key(1), hash: key(1).hashValue) == nil)
  }
}
