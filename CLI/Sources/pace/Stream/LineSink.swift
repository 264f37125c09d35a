//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Where the stream loop sends the lines the stages emit: standard output,
/// or a command.
protocol LineSink {
  /// A line the stages emitted.
  mutating func emit(_ line: Line)
  /// Called before the loop waits for anything: nothing emitted may wait.
  mutating func flush()
}

extension LineWriter: LineSink {
  mutating func emit(_ line: Line) {
    write(line)
  }
}
