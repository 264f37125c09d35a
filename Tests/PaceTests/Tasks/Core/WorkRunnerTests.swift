//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import Testing

/// The runner that pacers' `async` handlers and `DebouncedTask` share, event
/// by event, with real suspended callers: who starts, who loses, who is
/// answered, for each on-busy answer.
@Suite struct WorkRunnerTests {
  typealias Runner = WorkRunner<String, Int>

  /// A caller suspended as `run` suspends it, and the task that awaits its answer.
  struct Caller {
    let waiter: Waiter<Int>
    let answer: Task<Int, any Error>

    init(_ number: UInt) async {
      let (waiters, handOff) = AsyncStream<Waiter<Int>>.makeStream()
      answer = Task {
        try await withUnsafeThrowingContinuation { continuation in
          handOff.yield(Waiter(caller: CallerIdentity(address: number), continuation: continuation))
        }
      }
      var iterator = waiters.makeAsyncIterator()
      waiter = await iterator.next()!
    }

    /// Whether it lost: `CancellationError`.
    var lost: Bool {
      get async {
        do {
          _ = try await answer.value
          return false
        } catch {
          return error is CancellationError
        }
      }
    }
  }

  @Test func queue_keepsTheLatestWaiting_andALeavingWaiterLosesAtOnce() async throws {
    var runner = Runner(onBusy: .queue)
    let (a, b, c) = (await Caller(1), await Caller(2), await Caller(3))
    let first = runner.requested("a", waiter: a.waiter)
    #expect(first.start?.request == "a" && first.start?.generation == 1)
    #expect(runner.requested("b", waiter: b.waiter).isEmpty)  // It waits.
    let third = runner.requested("c", waiter: c.waiter)
    #expect(third.dropped?.caller == b.waiter.caller)  // b waited, c replaces it: b never runs.
    third.dropped?.lose()
    #expect(await b.lost)
    // c's caller is cancelled while it waits: it loses at once, and nothing starts for it later.
    let left = runner.leave(c.waiter.caller)
    #expect(left.dropped?.caller == c.waiter.caller)
    left.dropped?.lose()
    #expect(await c.lost)
    let (answered, next) = runner.finished(1, with: .success(10))
    #expect(answered?.generation == 1 && next.start == nil)
    answered?.finish(with: .success(10))
    #expect(try await a.answer.value == 10)
    #expect(!runner.isRunning)
  }

  @Test func queue_startsTheWaitingRequest_whenTheRunningOneEnds() async throws {
    var runner = Runner(onBusy: .queue)
    let (a, b) = (await Caller(1), await Caller(2))
    _ = runner.requested("a", waiter: a.waiter)
    _ = runner.requested("b", waiter: b.waiter)
    let (answered, next) = runner.finished(1, with: .success(1))
    answered?.finish(with: .success(1))
    #expect(next.start?.request == "b" && next.start?.generation == 2)
    let (second, none) = runner.finished(2, with: .success(2))
    second?.finish(with: .success(2))
    #expect(none.isEmpty)
    #expect(try await a.answer.value == 1)
    #expect(try await b.answer.value == 2)
  }

  @Test func restart_theRunningOneLoses_theNewOneStarts_andALeavingCallerCancelsItsWork() async throws {
    var runner = Runner(onBusy: .restart)
    let (a, b) = (await Caller(1), await Caller(2))
    _ = runner.requested("a", waiter: a.waiter)
    let second = runner.requested("b", waiter: b.waiter)
    #expect(second.lost?.generation == 1 && second.start?.generation == 2)
    second.lost?.lose()
    #expect(await a.lost)
    #expect(runner.finished(1, with: .success(1)).answered == nil)  // Stale: its caller lost already.
    let left = runner.leave(b.waiter.caller)
    #expect(left.lost?.generation == 2 && left.start == nil)
    left.lost?.lose()
    #expect(await b.lost)
    #expect(!runner.isRunning)
  }

  @Test func drop_theNewRequestLoses_theRunningOneGoesOn() async throws {
    var runner = Runner(onBusy: .drop)
    let (a, b) = (await Caller(1), await Caller(2))
    _ = runner.requested("a", waiter: a.waiter)
    let second = runner.requested("b", waiter: b.waiter)
    #expect(second.dropped?.caller == b.waiter.caller && second.start == nil && second.lost == nil)
    second.dropped?.lose()
    #expect(await b.lost)
    runner.finished(1, with: .success(7)).answered?.finish(with: .success(7))
    #expect(try await a.answer.value == 7)
  }

  @Test func cancelAll_withShutDown_everyoneLoses_andLaterRequestsAreDropped() async throws {
    var runner = Runner(onBusy: .queue)
    let (a, b, c) = (await Caller(1), await Caller(2), await Caller(3))
    _ = runner.requested("a", waiter: a.waiter)
    _ = runner.requested("b", waiter: b.waiter)
    let cancelled = runner.cancelAll(shutDown: true)
    #expect(cancelled.lost?.generation == 1 && cancelled.dropped?.caller == b.waiter.caller)
    cancelled.lost?.lose()
    cancelled.dropped?.lose()
    let late = runner.requested("c", waiter: c.waiter)
    #expect(late.dropped?.caller == c.waiter.caller && late.start == nil)
    late.dropped?.lose()
    for caller in [a, b, c] { #expect(await caller.lost) }
  }

  @Test func waiters_keepTheirOrder_andLeaveOneByOne() async throws {
    let callers = [await Caller(1), await Caller(2), await Caller(3)]
    var waiters = Waiters<Int>(nil)
    #expect(waiters.isEmpty)
    for caller in callers { waiters.append(caller.waiter) }
    #expect(waiters.count == 3 && waiters.contains(callers[1].waiter.caller))
    #expect(waiters.remove(callers[0].waiter.caller)?.caller == callers[0].waiter.caller)
    #expect(!waiters.contains(callers[0].waiter.caller) && waiters.count == 2)
    #expect(waiters.remove(CallerIdentity(address: 99)) == nil)
    callers[0].waiter.lose()
    waiters.resume(with: .success(5))
    #expect(await callers[0].lost)
    #expect(try await callers[1].answer.value == 5)
    #expect(try await callers[2].answer.value == 5)
  }
}
