//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// What a driver's timer calls when it fires: given the timer's owner back,
/// and whether it runs on ``KernelTimerScheduler``'s thread (where a driver
/// that opted in to inline delivery runs its handler at once); a manual clock
/// or a sleeping task passes false.
///
/// A function of the owner rather than a closure that captures it, and
/// rather than a protocol requirement:
/// - Capturing nothing, it needs no allocation, so arming a timer allocates
///   nothing and a firing frees nothing.
/// - The driver forms it in code the compiler specialises for the driver's
///   `Value`, so a firing runs no unspecialised generic code, which is what
///   makes a cold wake-up slow.
@usableFromInline
typealias TimerCallback = @Sendable (_ owner: AnyObject, _ onTimerThread: Bool) -> TimerDelivery?

/// A delivery the timer thread runs itself, right after the firing, in its
/// own long-lived task (so that no task is created per firing). Like the
/// callback, a function of the owner that captures nothing.
@usableFromInline
typealias TimerDelivery = @Sendable (_ owner: AnyObject) async -> Void
