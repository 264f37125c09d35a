//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

#if canImport(Glibc)
  import Glibc
#elseif canImport(Musl)
  import Musl
#elseif canImport(Darwin)
  import Darwin
#endif
import Synchronization

/// The C library's calls that `pace` makes, under one name on every platform
/// (`read`, `write` and `exit` are also names in Swift's own modules).
enum SystemCalls {
  static func read(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
      Darwin.read(descriptor, buffer, count)
    #elseif canImport(Musl)
      Musl.read(descriptor, buffer, count)
    #else
      Glibc.read(descriptor, buffer, count)
    #endif
  }

  static func write(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    #if canImport(Darwin)
      Darwin.write(descriptor, pointer, count)
    #elseif canImport(Musl)
      Musl.write(descriptor, pointer, count)
    #else
      Glibc.write(descriptor, pointer, count)
    #endif
  }

  /// The system's message for the error number `number` (`strerror`).
  static func message(forError number: Int32) -> String {
    String(cString: strerror(number))
  }

  static func exit(_ status: Int32) -> Never {
    #if canImport(Darwin)
      Darwin.exit(status)
    #elseif canImport(Musl)
      Musl.exit(status)
    #else
      Glibc.exit(status)
    #endif
  }
}

/// Ends the process with `status` (the C library's `exit`, which
/// `ParsableCommand.exit(withError:)` hides inside a command). The first
/// call exits; one made meanwhile from another thread (a signal's, the
/// end of the input's) waits for it rather than calling `exit` at the same
/// time, which the C library does not allow.
func terminateProcess(status: Int32) -> Never {
  if exitClaim.compareExchange(expected: false, desired: true, ordering: .acquiringAndReleasing).exchanged {
    SystemCalls.exit(status)
  }
  while true { pause() }
}

/// Whether a thread has begun to exit.
private let exitClaim = Atomic<Bool>(false)
