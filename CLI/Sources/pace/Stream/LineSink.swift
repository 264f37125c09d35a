//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Where the stream loop sends the lines the stages emit: standard output,
/// or a command.
protocol LineSink {
  /// A line the stages emitted, with its key (`--by`; nil without, or for
  /// a line that matches no key).
  mutating func emit(_ line: Line, key: String?)
  /// Called before the loop waits for anything: nothing emitted may wait.
  mutating func flush()
}

extension LineWriter: LineSink {
  mutating func emit(_ line: Line, key _: String?) {
    write(line)
  }
}
