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

/// Unbuffered text output to a file descriptor.
struct FileDescriptorOutput {
  let descriptor: Int32

  static let standardOutput = FileDescriptorOutput(descriptor: 1)
  static let standardError = FileDescriptorOutput(descriptor: 2)

  func write(_ text: String) {
    var text = text
    text.withUTF8 { buffer in
      var offset = 0
      while offset < buffer.count {
        let written = unistd_write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
        if written <= 0 { return }
        offset += written
      }
    }
  }
}

#if canImport(Darwin)
  private func unistd_write(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    Darwin.write(descriptor, pointer, count)
  }
#elseif canImport(Musl)
  private func unistd_write(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    Musl.write(descriptor, pointer, count)
  }
#else
  private func unistd_write(_ descriptor: Int32, _ pointer: UnsafeRawPointer, _ count: Int) -> Int {
    Glibc.write(descriptor, pointer, count)
  }
#endif

/// Ends the process with `status` (the C library's `exit`, which
/// `ParsableCommand.exit(withError:)` hides inside a command).
func terminateProcess(status: Int32) -> Never {
  #if canImport(Darwin)
    Darwin.exit(status)
  #elseif canImport(Musl)
    Musl.exit(status)
  #else
    Glibc.exit(status)
  #endif
}
