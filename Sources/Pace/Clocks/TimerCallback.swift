//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// What a driver's timer calls when it fires, given whether it runs on
/// ``TimerService``'s thread (where a handler with no isolation of its own may
/// run at once); a manual clock or a sleeping task passes false.
///
/// A closure rather than a protocol requirement so that the driver forms it
/// in code the compiler specialises for the driver's `Value`: a timer's
/// firing then runs no unspecialised generic code, which is what makes a
/// cold wake-up slow.
@usableFromInline
typealias TimerCallback = @Sendable (_ onTimerThread: Bool) -> TimerDelivery?

/// A delivery the timer thread runs itself, right after the firing, in its
/// own long-lived task (so that no task is created per firing).
@usableFromInline
typealias TimerDelivery = @Sendable () async -> Void
