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
import Pace

/// `pace [--replay] [--stats] STAGE... [-- COMMAND]`: the stream, replay and
/// command modes, from the words after `pace`.
enum StreamCommand {
  static func run(_ arguments: [String]) async -> Never {
    // A closed output is the end, not a signal: the writer exits quietly.
    signal(SIGPIPE, SIG_IGN)
    let invocation: StreamInvocation
    do {
      invocation = try StreamInvocation.parse(arguments)
    } catch {
      PaceCommand.failWithUsage(error.message)
    }
    var writer = LineWriter(descriptor: 1)
    if invocation.replay {
      let stages: [PacingStage<ReplayLine>] = stages(of: invocation) { $0.content.text }
      let counts = invocation.stats ? StageCounts(names: StreamInvocation.names(of: stages)) : nil
      do {
        try ReplayMode.run(stages: stages, counts: counts, into: &writer)
      } catch {
        writer.flush()
        PaceCommand.failWithUsage(error.message)
      }
      finish(counts)
    }
    let stages: [PacingStage<Line>] = stages(of: invocation) { $0.text }
    let counts = invocation.stats ? StageCounts(names: StreamInvocation.names(of: stages)) : nil
    if let options = invocation.commandOptions {
      await runCommand(options, stages: stages, counts: counts)
    }
    do {
      try StreamMode.run(stages: stages, counts: counts, into: &writer)
    } catch {
      FileDescriptorOutput.standardError.write("pace: error: cannot read the input: \(error.message)\n")
      terminateProcess(status: 1)
    }
    finish(counts)
  }

  /// `-- COMMAND`: each emitted line runs it, with the on-busy policy.
  private static func runCommand(_ options: CommandOptions, stages: [PacingStage<Line>], counts: StageCounts?) async
    -> Never
  {
    let runner = CommandRunner(options)
    let signals = TerminationSignals(stopping: runner)
    // The stream loop blocks (reading, waiting for room for a line), so it
    // runs on a thread of its own: the runner, its commands and the
    // signals' handlers need Swift concurrency's threads, of which a
    // machine with one core has one.
    let failure = await withCheckedContinuation { (done: CheckedContinuation<ReadError?, Never>) in
      let started = BlockingThread.start {
        var sink = CommandSink(runner: runner)
        do throws(ReadError) {
          try StreamMode.run(stages: stages, counts: counts, into: &sink)
          done.resume(returning: nil)
        } catch {
          done.resume(returning: error)
        }
      }
      if !started { done.resume(returning: ReadError(errorNumber: EAGAIN)) }
    }
    if let failure {
      FileDescriptorOutput.standardError.write("pace: error: cannot read the input: \(failure.message)\n")
      terminateProcess(status: await runner.stop(exitStatus: 1))
    }
    // A SIGINT or SIGTERM that came meanwhile decides the exit status, whichever
    // of the two paths gets there first.
    if let stopStatus = await runner.finish() { terminateProcess(status: stopStatus) }
    withExtendedLifetime(signals) {}
    finish(counts)
  }

  private static func stages<Value: Equatable & Sendable>(
    of invocation: StreamInvocation, text: @escaping @Sendable (Value) -> String
  ) -> [PacingStage<Value>] {
    do {
      return try invocation.stages(text: text)
    } catch {
      PaceCommand.failWithUsage(error.message)
    }
  }

  /// Prints the `--stats` summary, if asked for, and exits with status 0.
  private static func finish(_ counts: StageCounts?) -> Never {
    if let counts { FileDescriptorOutput.standardError.write(counts.summary) }
    terminateProcess(status: 0)
  }
}
