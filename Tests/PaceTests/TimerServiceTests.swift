//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if os(Linux)
  import Testing

  @testable import Pace

  /// The timer thread on the real clock. Every deadline here is already due
  /// (or an hour away), so no test waits on time passing.
  @Suite struct TimerServiceTests {
    /// Records each firing and resumes whoever waits for the first.
    final class Target: Sendable {
      private let state = LockedState<(fired: [Bool], waiter: CheckedContinuation<Bool, Never>?)>(([], nil))

      func timerFired(onTimerThread: Bool) {
        let waiter = state.withLock { state in
          state.fired.append(onTimerThread)
          defer { state.waiter = nil }
          return state.waiter
        }
        waiter?.resume(returning: onTimerThread)
      }

      /// Whether the first firing was on the timer thread, once it has come.
      func firstFiring() async -> Bool {
        await withCheckedContinuation { continuation in
          let fired = state.withLock { state -> Bool? in
            if let first = state.fired.first { return first }
            state.waiter = continuation
            return nil
          }
          if let fired { continuation.resume(returning: fired) }
        }
      }

      var firings: Int { state.withLock { $0.fired.count } }
      var id: ObjectIdentifier { ObjectIdentifier(self) }
      var fire: TimerCallback { { [self] in timerFired(onTimerThread: $0) } }
    }

    let service = try! #require(TimerService.shared)

    @Test func aDueTimer_firesOnce_onTheTimerThread() async {
      let target = Target()
      service.schedule(target.id, at: LinuxContinuousClock.kernelNanoseconds(), fire: target.fire)
      #expect(await target.firstFiring())
      #expect(service.deadline(of: target.id) == nil)
      // A second, later timer on another target fires after the first is gone,
      // so the first did not fire twice.
      let later = Target()
      service.schedule(later.id, at: LinuxContinuousClock.kernelNanoseconds(), fire: later.fire)
      _ = await later.firstFiring()
      #expect(target.firings == 1)
    }

    @Test func aCancelledTimer_isGone() {
      let target = Target()
      service.schedule(target.id, at: LinuxContinuousClock.kernelNanoseconds() + 3_600_000_000_000, fire: target.fire)
      #expect(service.deadline(of: target.id) != nil)
      service.cancel(target.id)
      #expect(service.deadline(of: target.id) == nil)
      #expect(target.firings == 0)
    }

    @Test func movingATimerEarlier_wakesTheThreadForIt() async {
      let target = Target()
      // The thread sleeps for the hour-long deadline, then must wake for the new one.
      service.schedule(target.id, at: LinuxContinuousClock.kernelNanoseconds() + 3_600_000_000_000, fire: target.fire)
      service.schedule(target.id, at: LinuxContinuousClock.kernelNanoseconds(), fire: target.fire)
      #expect(await target.firstFiring())
      #expect(target.firings == 1)
    }

    @Test func aDeadlineOfNever_staysArmedAndDoesNotFire() {
      let target = Target()
      service.schedule(target.id, at: .max, fire: target.fire)
      #expect(service.deadline(of: target.id) == .max)
      service.cancel(target.id)
      #expect(target.firings == 0)
    }
  }
#endif
