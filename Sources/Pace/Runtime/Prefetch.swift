//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import CPaceLinux

/// Starts loading the cache line at `address` (a plain number, never
/// dereferenced) and returns at once: a hint that cannot fault, so the
/// address may be stale. A keyed send uses it to load its key's bucket while
/// it takes the lock and reads the clock, which would otherwise wait for it.
@inlinable
func prefetch(_ address: UInt) {
  c_pace_prefetch(UnsafeRawPointer(bitPattern: address))
}
