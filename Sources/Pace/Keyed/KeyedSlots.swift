//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// The live keys of a keyed driver: each key's policy and armed deadline in
/// one dense array of slots, found through an open-addressing index of slot
/// numbers.
///
/// Laid out for a million keys: a slot holds the key, its policy and the
/// deadline its timer is armed for, and nothing else (no per-key outbox,
/// array or object); the index is 4 bytes per bucket, kept at most three
/// quarters full. A `Dictionary<Key, Int32>` would store each key twice and
/// cost 12–20 bytes per bucket. A bucket holds a slot number in its low bits
/// and, in the bits that number cannot need at the index's size, a tag of
/// the key's hash: a lookup reads a slot (a cache miss, at a million keys)
/// only when the tag matches, so a probe past another key's bucket costs
/// nothing but the bucket. Slots stay dense: removing a key moves the last slot into its
/// place, so iterating, counting and shrinking need no free list, and memory
/// follows the live keys down as well as up. A large index (past a core's
/// cache) has a small table of the slots of keys found lately in front of
/// it (``find(_:hash:)``), so that a key sent to often costs one cache miss,
/// its slot, rather than two.
///
/// A value type with no lock: its driver keeps it behind its own.
///
///     var slots = KeyedSlots<String, Int>()
///     let slot = slots.insert("a", machine: 1)
///     slots[slot].machine += 1
///     slots.slot(of: "a")  // 0
@usableFromInline
package struct KeyedSlots<Key: Hashable, Machine> {
  @usableFromInline
  package struct Slot {
    @usableFromInline package let key: Key
    @usableFromInline package var machine: Machine
    /// The deadline the key's timer is armed for, if any.
    @usableFromInline var armed: ArmedDeadline

    @inlinable
    init(key: Key, machine: Machine) {
      self.key = key
      self.machine = machine
      self.armed = ArmedDeadline()
    }
  }

  /// The live keys, in no particular order.
  @usableFromInline package private(set) var slots: [Slot] = []
  /// Open addressing with linear probing: 0 for an empty bucket, else a
  /// slot number plus one in the low `slotBits` bits, under a tag of the key's hash.
  @usableFromInline var buckets: [UInt32] = []
  /// How many low bits of a bucket hold its slot number plus one: enough for
  /// one more than the bucket count, since slots never outnumber buckets.
  @usableFromInline var slotBits = 0
  /// For an index too large for a core's cache: the slots of keys found
  /// lately, in sets of four by their hash (``recentWays``), each entry a slot number plus one
  /// under the hash's low 32 bits; empty for a smaller index
  /// (``recentFromBuckets``). A key sent to
  /// often is found here, in a table that stays cached, and then in its
  /// slot, without reading the index (a second cache miss at a million
  /// keys). An entry is a hint: the slot's key is compared, so an entry
  /// left stale by a removal costs a lookup in the index, nothing more.
  @usableFromInline var recent: [UInt64] = []
  /// The bucket count from which the index has ``recent``: by default an
  /// index of 4 MiB, past what a core keeps cached. (From 512 KiB, the
  /// table cost a send at 80,000 keys 30–55 ns, in `Benchmarks/compare`'s
  /// "keyed send tasks": its keys came round too seldom to be found in it.)
  @usableFromInline let recentFromBuckets: Int

  /// The capacity an empty table keeps; beyond it, shrinking gives memory back.
  @inlinable
  static var retainedCapacity: Int { 64 }

  /// An empty table; `recentFromBuckets` is for tests, which need not make
  /// a million keys to have recent slots noted.
  @inlinable
  package init(recentFromBuckets: Int = 1 << 20) {
    self.recentFromBuckets = recentFromBuckets
  }

  /// The number of live keys.
  @inlinable
  package var count: Int { slots.count }

  /// Room for keys without growing: the slots' and the index's.
  package var capacity: (slots: Int, buckets: Int) { (slots.capacity, buckets.count) }

  @inlinable
  package subscript(slot: Int) -> Slot {
    _read { yield slots[slot] }
    _modify { yield &slots[slot] }
  }

  /// The slot of `key`, if it is live.
  @inlinable
  package func slot(of key: Key) -> Int? {
    slot(of: key, hash: key.hashValue)
  }

  /// How many entries ``recent`` has when the index is large enough to have
  /// it (128 KiB).
  @inlinable
  static var recentCount: Int { 16_384 }

  /// How many entries of ``recent`` a hash may use: a set of four (32
  /// bytes, in one cache line or, as the array lies, two). Direct-mapped (a set of one), two hot keys that
  /// share an entry evict each other at every event: with 10,000 hot keys
  /// among a million, about a quarter of the events missed the table and
  /// read the index (a cache miss), which took 15% of a profile of hot
  /// sends. With sets of four, a key misses only when five or more hot keys
  /// share its set (about one event in sixteen, estimated): 5% of the same
  /// profile, which includes making the million keys.
  @inlinable
  static var recentWays: Int { 4 }

  /// The first entry of the set of ``recent`` for `hash`: from its upper
  /// half, which the index's first bucket does not use.
  @inlinable
  static func recentSet(of hash: Int, count: Int) -> Int {
    Int(truncatingIfNeeded: UInt(bitPattern: hash) >> UInt(UInt.bitWidth / 2)) & (count &- 1) & ~(recentWays &- 1)
  }

  /// The entry of ``recent`` that says `key`, whose hash is `hash`, is in
  /// `slot` (below 2^32 - 1, as the index's buckets keep it).
  @inlinable
  static func recentEntry(slot: Int, hash: Int) -> UInt64 {
    UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: hash)) << 32 | UInt64(truncatingIfNeeded: slot &+ 1) & 0xFFFF_FFFF
  }

  /// The slot of `key`, whose `hashValue` is `hash`, if it is live; the
  /// key's slot is noted among the recent ones, for its next event.
  @inlinable
  package mutating func find(_ key: Key, hash: Int) -> Int? {
    guard !recent.isEmpty else { return slot(of: key, hash: hash) }
    let set = Self.recentSet(of: hash, count: recent.count)
    let tag = UInt64(truncatingIfNeeded: UInt32(truncatingIfNeeded: hash))
    var stale = Self.recentWays &- 1  // The entry a newly found key replaces: the oldest, unless one is its own.
    for way in 0..<Self.recentWays {
      let entry = recent[set &+ way]
      guard entry >> 32 == tag else { continue }
      let slot = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF) &- 1
      if slot >= 0, slot < slots.count, slots[slot].key == key { return slot }
      stale = way  // Its hash's, left stale by a move or a removal (or another key's with the same tag).
    }
    guard let slot = slot(of: key, hash: hash) else { return nil }
    noteRecent(slot, hash: hash, set: set, replacing: stale)  // Its set is known, and the table is there.
    return slot
  }

  /// Notes that the key whose hash is `hash` is in `slot`, when the index
  /// has ``recent`` (a new key's; `find` notes a found one itself).
  @inlinable
  mutating func noteRecent(_ slot: Int, hash: Int) {
    guard !recent.isEmpty else { return }
    noteRecent(slot, hash: hash, set: Self.recentSet(of: hash, count: recent.count), replacing: Self.recentWays &- 1)
  }

  /// Puts the entry for `slot` first in its set: the entries before the one
  /// it replaces move one place on, so the oldest goes.
  @inlinable
  mutating func noteRecent(_ slot: Int, hash: Int, set: Int, replacing replaced: Int) {
    var way = replaced
    while way > 0 {
      recent[set &+ way] = recent[set &+ way &- 1]
      way &-= 1
    }
    recent[set] = Self.recentEntry(slot: slot, hash: hash)
  }

  /// The slot of `key`, whose `hashValue` is `hash`, if it is live.
  @inlinable
  package func slot(of key: Key, hash: Int) -> Int? {
    guard !buckets.isEmpty else { return nil }
    let mask = buckets.count &- 1
    let tag = self.tag(hash)
    let slotMask = UInt32(truncatingIfNeeded: (1 << slotBits) &- 1)
    var bucket = Self.firstBucket(of: hash, mask: mask)
    while true {
      let entry = buckets[bucket]
      if entry == 0 { return nil }
      if entry & ~slotMask == tag {
        let slot = Int(entry & slotMask) &- 1
        if slots[slot].key == key { return slot }
      }
      bucket = (bucket &+ 1) & mask
    }
  }

  /// Where the index lies, as numbers: the address of its first bucket (0
  /// when it has none) and the mask of a hash's first bucket, for a caller
  /// that prefetches a key's bucket before it takes its lock
  /// (``bucketAddress(of:index:mask:)``, ``prefetch(_:)``).
  @inlinable
  package var indexLocation: (address: UInt, mask: Int) {
    guard !buckets.isEmpty else { return (0, 0) }
    return buckets.withUnsafeBufferPointer { (UInt(bitPattern: $0.baseAddress), $0.count &- 1) }
  }

  /// The address of the first bucket that `slot(of:hash:)` reads for
  /// `hash`, in an index that lay at `index` with `mask` (``indexLocation``).
  @inlinable
  package static func bucketAddress(of hash: Int, index: UInt, mask: Int) -> UInt {
    index &+ UInt(bitPattern: firstBucket(of: hash, mask: mask)) &* UInt(MemoryLayout<UInt32>.stride)
  }

  /// The bucket where the search for `hash` begins (linear probing from it).
  @inlinable
  static func firstBucket(of hash: Int, mask: Int) -> Int {
    hash & mask
  }

  /// The tag of `hash` in a bucket: its high bits, above the slot number.
  @inlinable
  func tag(_ hash: Int) -> UInt32 {
    guard slotBits < 32 else { return 0 }
    return UInt32(truncatingIfNeeded: UInt(bitPattern: hash) >> UInt(32 &+ slotBits)) << UInt32(slotBits)
  }

  /// The bucket entry of `slot`, whose key hashes to `hash`.
  @inlinable
  func entry(slot: Int, hash: Int) -> UInt32 {
    tag(hash) | UInt32(truncatingIfNeeded: slot &+ 1)
  }

  /// Adds `key`, which must not be live, with `machine`; returns its slot.
  @inlinable
  package mutating func insert(_ key: Key, machine: Machine) -> Int {
    insert(key, hash: key.hashValue, machine: machine)
  }

  /// Adds `key`, whose `hashValue` is `hash` and which must not be live,
  /// with `machine`; returns its slot.
  @inlinable
  package mutating func insert(_ key: Key, hash: Int, machine: Machine) -> Int {
    if (slots.count &+ 1) &* 4 > buckets.count &* 3 { rebuildIndex(bucketCount: Swift.max(buckets.count &* 2, 16)) }
    let slot = slots.count
    slots.append(Slot(key: key, machine: machine))
    let mask = buckets.count &- 1
    var bucket = Self.firstBucket(of: hash, mask: mask)
    while buckets[bucket] != 0 { bucket = (bucket &+ 1) & mask }
    buckets[bucket] = entry(slot: slot, hash: hash)
    noteRecent(slot, hash: hash)
    return slot
  }

  /// Removes the key in `slot`. The last slot moves into its place: returns
  /// the slot it moved from (the old count minus one) when that is another.
  @inlinable @discardableResult
  package mutating func remove(at slot: Int) -> Int? {
    let last = slots.count &- 1
    removeFromIndex(slotNumber: slot)
    var moved: Int?
    if slot != last {
      // The last slot moves into the hole: its bucket now says `slot`.
      let hash = slots[last].key.hashValue
      buckets[bucket(hash: hash, slotNumber: last)] = entry(slot: slot, hash: hash)
      slots.swapAt(slot, last)
      moved = last
    }
    slots.removeLast()
    shrinkIfSparse()
    return moved
  }

  /// Removes the keys in `doomed` (slot numbers, each at most once) in one
  /// pass: the other keys keep their order but not their slot numbers, and
  /// the index is made anew. For a firing that drops many keys at once,
  /// where removing them one by one would rehash a moved key each time.
  @inlinable
  package mutating func remove(slots doomed: [Int]) {
    var kept = [Bool](repeating: true, count: slots.count)
    for slot in doomed { kept[slot] = false }
    var survivors: [Slot] = []
    survivors.reserveCapacity(Swift.max(slots.count &- doomed.count, 0) &* 2)
    for slot in slots.indices where kept[slot] { survivors.append(slots[slot]) }
    slots = survivors
    var bucketCount = Swift.max(buckets.count, 16)
    while bucketCount > Self.retainedCapacity * 2, slots.count &* 8 < bucketCount { bucketCount /= 4 }
    rebuildIndex(bucketCount: bucketCount)
  }

  /// Removes every key.
  package mutating func removeAll() {
    slots = []
    buckets = []
    slotBits = 0
    recent = []
  }

  /// The bucket that holds `slotNumber`, whose key hashes to `hash`.
  @inlinable
  func bucket(hash: Int, slotNumber: Int) -> Int {
    let mask = buckets.count &- 1
    let entry = entry(slot: slotNumber, hash: hash)
    var bucket = Self.firstBucket(of: hash, mask: mask)
    while buckets[bucket] != entry { bucket = (bucket &+ 1) & mask }
    return bucket
  }

  /// Empties the bucket of `slotNumber` and shifts back the entries after it
  /// that probed past it, so that lookups need no tombstones.
  @inlinable
  mutating func removeFromIndex(slotNumber: Int) {
    let mask = buckets.count &- 1
    let slotMask = UInt32(truncatingIfNeeded: (1 << slotBits) &- 1)
    var hole = bucket(hash: slots[slotNumber].key.hashValue, slotNumber: slotNumber)
    var next = hole
    while true {
      next = (next &+ 1) & mask
      let entry = buckets[next]
      if entry == 0 { break }
      let home = Self.firstBucket(of: slots[Int(entry & slotMask) &- 1].key.hashValue, mask: mask)
      // The entry may fill the hole if its home bucket is not in (hole, next].
      let reachable = hole <= next ? (home > hole && home <= next) : (home > hole || home <= next)
      if !reachable {
        buckets[hole] = entry
        hole = next
      }
    }
    buckets[hole] = 0
  }

  /// Gives memory back once the keys are far fewer than the room kept for them.
  @inlinable
  mutating func shrinkIfSparse() {
    if slots.isEmpty {
      if slots.capacity > Self.retainedCapacity { slots = [] }
      if buckets.count > Self.retainedCapacity * 2 { (buckets, slotBits, recent) = ([], 0, []) }
      return
    }
    if slots.capacity > Self.retainedCapacity, slots.count &* 4 < slots.capacity {
      var kept: [Slot] = []
      kept.reserveCapacity(slots.count &* 2)
      kept.append(contentsOf: slots)
      slots = kept
    }
    if buckets.count > Self.retainedCapacity * 2, slots.count &* 8 < buckets.count {
      rebuildIndex(bucketCount: buckets.count / 4)
    }
  }

  /// Makes an index of `bucketCount` buckets (a power of two) for every slot.
  @inlinable
  mutating func rebuildIndex(bucketCount: Int) {
    buckets = [UInt32](repeating: 0, count: bucketCount)
    // Slot numbers may have changed: the recent ones start again.
    recent = bucketCount >= recentFromBuckets ? [UInt64](repeating: 0, count: Self.recentCount) : []
    slotBits = Int.bitWidth &- bucketCount.leadingZeroBitCount  // Holds `bucketCount` itself.
    let mask = bucketCount &- 1
    for slot in slots.indices {
      let hash = slots[slot].key.hashValue
      var bucket = Self.firstBucket(of: hash, mask: mask)
      while buckets[bucket] != 0 { bucket = (bucket &+ 1) & mask }
      buckets[bucket] = entry(slot: slot, hash: hash)
    }
  }
}
