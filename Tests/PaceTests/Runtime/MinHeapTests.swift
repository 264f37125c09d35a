//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@testable import Pace
import Testing

/// The heap under every lazy deadline queue: elements come out in order,
/// whether inserted one by one or all at once by `replaceAll(with:)`
/// (sorted, which is a heap), with ties and after removals.
@Suite struct MinHeapTests {
  @Test(arguments: [0, 1, 2, 3, 7, 64, 1_000])
  func replaceAll_thenInsertsAndRemovals_comeOutInOrder(count: Int) {
    var generator = SeededGenerator(seed: UInt64(count) &+ 1)
    let deadline = { (generator: inout SeededGenerator) in Int64.random(in: 0..<50, using: &generator) }  // Many ties.
    var entries = (0..<count).map { KeyedTimerEntry(deadline: deadline(&generator), slot: $0) }
    var heap = MinHeap<KeyedTimerEntry>()
    heap.replaceAll(with: entries)
    #expect(heap.count == count)
    for (index, element) in heap.elements.enumerated() where index > 0 {
      #expect(!element.comesBefore(heap.elements[(index - 1) / 2]), "element \(index) comes before its parent")
    }
    for slot in count..<(count + count / 2) {
      let entry = KeyedTimerEntry(deadline: deadline(&generator), slot: slot)
      heap.insert(entry)
      entries.append(entry)
    }
    var popped: [KeyedTimerEntry] = []
    while !heap.isEmpty { popped.append(heap.removeFirst()) }
    #expect(popped.map(\.deadline) == entries.map(\.deadline).sorted())
    #expect(Set(popped.map(\.slot)) == Set(entries.map(\.slot)))
  }
}
