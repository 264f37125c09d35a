//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Unbuffered text output to a file descriptor.
struct FileDescriptorOutput {
  let descriptor: Int32

  static let standardOutput = FileDescriptorOutput(descriptor: 1)
  static let standardError = FileDescriptorOutput(descriptor: 2)

  func write(_ text: String) {
    var text = text
    text.withUTF8 { write($0) }
  }

  /// Writes `bytes` as they are.
  func write(_ bytes: [UInt8]) {
    bytes.withUnsafeBufferPointer { write($0) }
  }

  private func write(_ buffer: UnsafeBufferPointer<UInt8>) {
    var offset = 0
    while offset < buffer.count {
      let written = SystemCalls.write(descriptor, buffer.baseAddress! + offset, buffer.count - offset)
      if written <= 0 { return }
      offset += written
    }
  }
}
