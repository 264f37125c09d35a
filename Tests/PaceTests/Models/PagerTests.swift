//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import Testing

/// An item with an identity, for `loadNextIfNeeded(for:)`.
struct Post: Identifiable, Sendable, Equatable {
  let id: Int
}

@MainActor @Suite(.timeLimit(.minutes(3))) struct PagerTests {
  @Test func loadsPagesInOrder_andNeverAsksForAPageAfterTheLast() async {
    let source = PageSource()
    let pager = Pager(loadPage: source.load)
    #expect(pager.items.isEmpty && pager.hasMore && !pager.isLoading)
    pager.loadNext()
    #expect(pager.isLoading)
    source.answer(0, ["a", "b"], next: 2)
    await pager.waitUntilIdle()
    #expect(pager.items == ["a", "b"] && pager.hasMore && !pager.isLoading)
    pager.loadNext()
    source.answer(1, ["c"], next: 3)
    await pager.waitUntilIdle()
    pager.loadNext()
    source.answer(2, ["d"], next: nil)  // The last page.
    await pager.waitUntilIdle()
    #expect(pager.items == ["a", "b", "c", "d"])
    #expect(!pager.hasMore)
    pager.loadNext()
    pager.loadNextIfNeeded(at: 3)
    pager.retry()
    #expect(!pager.isLoading)
    #expect(source.cursors == [nil, 2, 3])  // Nothing after the end.
  }

  @Test func twoLoadNextCallsInOneMainActorTurn_startOneLoad() async {
    let source = PageSource()
    let pager = Pager(loadPage: source.load)
    pager.loadNext()
    pager.loadNext()  // Same turn: the first call's guard already holds.
    source.answer(0, ["a"], next: 2)
    await pager.waitUntilIdle()
    pager.loadNext()
    pager.loadNextIfNeeded(at: 0)
    source.answer(1, ["b"], next: nil)
    await pager.waitUntilIdle()
    #expect(source.cursors == [nil, 2])
    #expect(pager.items == ["a", "b"])
  }

  /// With 20 items and a threshold of 5, the last 5 rows (15 to 19) load.
  @Test(arguments: [(0, false), (14, false), (15, true), (19, true), (20, false), (-1, false)])
  func loadNextIfNeeded_loadsOnlyNearTheEnd(index: Int, loads: Bool) async {
    let source = PageSource()
    let pager = Pager(loadPage: source.load)
    pager.loadNext()
    source.answer(0, (0..<20).map { "\($0)" }, next: 20)
    await pager.waitUntilIdle()
    pager.loadNextIfNeeded(at: index, threshold: 5)
    #expect(pager.isLoading == loads)
    pager.cancel()
  }

  @Test(arguments: [(17, false), (18, true), (19, true), (99, false)])
  func loadNextIfNeeded_forAnItem_findsItAmongTheLastItems(id: Int, loads: Bool) async {
    let pager = Pager<Post, Int> { cursor in Page(items: (0..<20).map(Post.init), next: (cursor ?? 0) + 1) }
    pager.loadNext()
    await pager.waitUntilIdle()
    pager.loadNextIfNeeded(for: Post(id: id), threshold: 2)
    #expect(pager.isLoading == loads)
    await pager.waitUntilIdle()
  }

  @Test func anError_keepsTheItems_pausesLoading_andRetryLoadsTheSamePageAgain() async {
    let source = PageSource()
    let pager = Pager(loadPage: source.load)
    pager.loadNext()
    source.answer(0, ["a"], next: 2)
    await pager.waitUntilIdle()
    pager.loadNext()
    source.fail(1, with: Boom())
    await pager.waitUntilIdle()
    #expect(pager.error is Boom)
    #expect(pager.items == ["a"] && !pager.isLoading && pager.hasMore)
    pager.loadNext()
    pager.loadNextIfNeeded(at: 0)
    #expect(!pager.isLoading)  // Paused: rows that appear do not ask a failing server again.
    pager.retry()
    #expect(pager.isLoading)
    source.answer(2, ["b"], next: 3)
    await pager.waitUntilIdle()
    #expect(pager.error == nil)
    #expect(pager.items == ["a", "b"])
    pager.loadNext()  // Not wedged: loading goes on.
    source.answer(3, ["c"], next: nil)
    await pager.waitUntilIdle()
    #expect(source.cursors == [nil, 2, 2, 3])
    #expect(pager.items == ["a", "b", "c"])
  }

  @Test func aRefreshWhilePage3Loads_cancelsIt_andItsLatePageNeverLandsInTheNewList() async {
    let source = PageSource()
    let pager = Pager(loadPage: source.load)
    var ends = endsOfLoads(pager).makeAsyncIterator()
    pager.loadNext()
    source.answer(0, ["old 1"], next: 2)
    await pager.waitUntilIdle()
    pager.loadNext()
    source.answer(1, ["old 2"], next: 3)
    await pager.waitUntilIdle()
    #expect(await ends.next() == .replace)
    #expect(await ends.next() == .append)
    pager.loadNext()  // Page 3: call 2, in flight.
    await source.requested(3)
    let refreshed = Task { await pager.refresh() }
    await source.requested(4)  // The refresh asks for the first page…
    #expect(source.isCancelled(2))  // …and cancelled page 3's load first.
    #expect(pager.items == ["old 1", "old 2"] && pager.isLoading && pager.hasMore)
    source.answer(2, ["old 3"], next: 4)  // Page 3 arrives late: its loader ignored the cancellation.
    #expect(await ends.next() == .drop)
    #expect(pager.items == ["old 1", "old 2"] && pager.isLoading)
    source.answer(3, ["new 1"], next: 2)
    await refreshed.value
    #expect(await ends.next() == .replace)
    #expect(pager.items == ["new 1"])
    pager.loadNext()
    source.answer(4, ["new 2"], next: nil)
    await pager.waitUntilIdle()
    #expect(pager.items == ["new 1", "new 2"])
    #expect(source.cursors == [nil, 2, 3, nil, 2])
  }

  @Test func aFailedRefresh_keepsTheOldItems_andRetryLoadsTheFirstPage() async {
    let source = PageSource()
    let pager = Pager(loadPage: source.load)
    pager.loadNext()
    source.answer(0, ["old 1"], next: nil)
    await pager.waitUntilIdle()
    #expect(!pager.hasMore)
    let refreshed = Task { await pager.refresh() }
    await source.requested(2)
    source.fail(1, with: Boom())
    await refreshed.value
    #expect(pager.error is Boom && pager.items == ["old 1"] && pager.hasMore)
    pager.loadNext()
    #expect(!pager.isLoading)
    pager.retry()
    source.answer(2, ["new 1"], next: 2)
    await pager.waitUntilIdle()
    #expect(pager.items == ["new 1"] && pager.error == nil)
    #expect(source.cursors == [nil, nil, nil])  // Never the old list's next page.
  }

  @Test func cancel_dropsTheLatePage_andTheNextLoadAsksForTheSamePageAgain() async {
    let source = PageSource()
    let pager = Pager(loadPage: source.load)
    var ends = endsOfLoads(pager).makeAsyncIterator()
    pager.loadNext()
    await source.requested(1)
    pager.cancel()
    #expect(source.isCancelled(0) && !pager.isLoading)
    source.answer(0, ["late"], next: 2)
    #expect(await ends.next() == .drop)
    #expect(pager.items.isEmpty)
    pager.loadNext()
    source.answer(1, ["a"], next: nil)
    await pager.waitUntilIdle()
    #expect(pager.items == ["a"])
    #expect(source.cursors == [nil, nil])
  }

  @Test func aPagerThatGoesAway_cancelsItsLoad_whichNeverKeepsItAlive() async {
    let source = PageSource()
    var pager: Pager<String, Int>? = Pager(loadPage: source.load)
    weak let weakPager = pager
    pager?.loadNext()
    await source.requested(1)
    pager = nil
    #expect(weakPager == nil)  // The running load held it weakly.
    #expect(source.isCancelled(0))
    source.answer(0, ["late"], next: nil)  // Lands nowhere.
  }

  @Test func cancellingATaskThatWaits_endsItsWait_andTheLoadGoesOn() async {
    let source = PageSource()
    let pager = Pager(loadPage: source.load)
    pager.loadNext()
    await source.requested(1)
    let waiting = Task { await pager.waitUntilIdle() }
    waiting.cancel()
    await waiting.value
    #expect(pager.isLoading && !source.isCancelled(0))
    source.answer(0, ["a"], next: nil)
    await pager.waitUntilIdle()
    #expect(pager.items == ["a"])
  }

  @Test func aThousandOverlappingCalls_fromSeveralTasks_landEveryPageOnceInOrder_andLeaveNoLoadBehind() async {
    let started = Counter()
    let pages = 20
    let pager = Pager<Int, Int> { cursor in
      started.add()
      await Task.yield()
      let page = cursor ?? 0
      return Page(items: Array(page * 10..<page * 10 + 10), next: page + 1 < pages ? page + 1 : nil)
    }
    let ends = endsOfLoads(pager)
    let isInOrder = { @MainActor in pager.items == Array(0..<pager.items.count) && pager.items.count % 10 == 0 }
    let workers = 8
    let calls = 1_000
    let outOfOrder = await withTaskGroup(of: Int.self) { group in
      for worker in 0..<workers {
        group.addTask {
          var outOfOrder = 0
          for call in stride(from: worker, to: calls, by: workers) {
            switch call % 20 {
            case 0: await pager.refresh()
            case 1...9: await pager.loadNext()
            default: await pager.loadNextIfNeeded(at: call % 200)
            }
            if await !isInOrder() { outOfOrder += 1 }
          }
          return outOfOrder
        }
      }
      var total = 0
      for await count in group { total += count }
      return total
    }
    #expect(outOfOrder == 0)
    await pager.waitUntilIdle()
    while pager.hasMore {  // Not wedged: the rest of the list loads.
      pager.loadNext()
      await pager.waitUntilIdle()
    }
    #expect(pager.items == Array(0..<pages * 10))
    // Every load that started has ended, the superseded ones included.
    var ended = 0
    for await _ in ends {
      ended += 1
      if ended == started.value { break }
    }
    #expect(ended == started.value)
    #expect(!pager.isLoading)
  }

  /// What each load's end did, in order.
  private func endsOfLoads<Item, Cursor>(
    _ pager: Pager<Item, Cursor>
  ) -> AsyncStream<PagingStateMachine<Cursor>.Landing> {
    let (ends, ended) = AsyncStream<PagingStateMachine<Cursor>.Landing>.makeStream()
    pager.didEndLoad = { ended.yield($0) }
    return ends
  }
}
