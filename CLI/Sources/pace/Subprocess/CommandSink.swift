//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Lines to a command: each one a run, as the on-busy policy says.
struct CommandSink: LineSink {
  let runner: CommandRunner

  mutating func emit(_ line: Line, key: String?) {
    runner.lineEmitted(line.bytes, key: key)
  }

  mutating func flush() {}
}
