//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Testing

@testable import Pace

/// The heap under every lazy deadline queue, against a sorted model: filled
/// at once by `replaceAll(with:)` or one by one, with many ties, inserts
/// and removals interleaved; the heap order holds after every change, the
/// first element is always the model's, and an emptied heap gives its
/// memory back.
@Suite struct MinHeapTests {
  @Test(arguments: 0..<24)
  func interleavedInsertsAndRemovals_keepTheHeapOrder_andComeOutInOrder(seed: Int) {
    var generator = SeededGenerator(seed: UInt64(seed) &+ 1)
    let deadline = { (generator: inout SeededGenerator) in Int64.random(in: 0..<50, using: &generator) }  // Many ties.
    var nextSlot = 0
    func entry(_ generator: inout SeededGenerator) -> KeyedTimerEntry {
      defer { nextSlot += 1 }
      return KeyedTimerEntry(deadline: deadline(&generator), slot: nextSlot)
    }
    var heap = MinHeap<KeyedTimerEntry>()
    var model: [Int64] = []  // The deadlines in the heap, sorted.
    func check(_ step: String) {
      #expect(heap.count == model.count, "\(step)")
      for (index, element) in heap.elements.enumerated() where index > 0 {
        #expect(!element.comesBefore(heap.elements[(index - 1) / 2]), "\(step): element \(index) comes before its parent")
      }
      #expect(heap.first?.deadline == model.first, "\(step)")
    }
    let start = (0..<Int.random(in: 0..<300, using: &generator)).map { _ in entry(&generator) }
    heap.replaceAll(with: start)
    model = start.map(\.deadline).sorted()
    check("replaceAll")
    for step in 0..<2_000 {
      if model.isEmpty || Int.random(in: 0..<5, using: &generator) < 2 {
        let new = entry(&generator)
        heap.insert(new)
        model.insert(new.deadline, at: model.firstIndex { $0 > new.deadline } ?? model.endIndex)
      } else {
        #expect(heap.removeFirst().deadline == model.removeFirst(), "step \(step)")
      }
      check("step \(step)")
    }
    while !heap.isEmpty { #expect(heap.removeFirst().deadline == model.removeFirst()) }
    #expect(heap.elements.capacity <= TimerHeap<Int, Void>.retainedCapacity)
  }
}
