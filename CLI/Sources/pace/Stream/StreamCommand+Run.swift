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
import ArgumentParser
import Pace

extension StreamCommand {
  /// Runs the replay, command or stream mode to the end of the input.
  /// Bad input throws a `UsageError`; a read that fails, or a stop in
  /// command mode, throws the `ExitCode` to exit with.
  func run() async throws {
    // A closed output is the end, not a signal: the writer exits quietly.
    signal(SIGPIPE, SIG_IGN)
    if let fleet = try fleetStream() {
      return try await fleet.run()
    }
    var writer = LineWriter(descriptor: 1)
    if replay {
      let stages = try stages { (line: ReplayLine) in line.content.text }
      let counts = stats ? StageCounts(names: Self.names(of: stages)) : nil
      do {
        try ReplayMode.run(stages: stages, by: by, counts: counts, into: &writer)
      } catch {
        writer.flush()
        throw UsageError(error.message)
      }
      return finish(counts)
    }
    let stages = try stages { (line: Line) in line.text }
    let counts = stats ? StageCounts(names: Self.names(of: stages)) : nil
    if let options = commandOptions {
      return try await runCommand(options, stages: stages, counts: counts)
    }
    do {
      try StreamMode.run(stages: stages, by: by, counts: counts, into: &writer)
    } catch {
      throw Self.cannotRead(error)
    }
    finish(counts)
  }

  /// `-- COMMAND`: each emitted line runs it, with the on-busy mode (per key with `--by`).
  private func runCommand(_ options: CommandOptions, stages: [PacingStage<Line>], counts: StageCounts?) async throws {
    let runner = CommandRunner(options)
    let signals = TerminationSignals { await runner.stop(exitStatus: $0) }
    // The stream loop blocks (reading, waiting for room for a line), so it
    // runs on a thread of its own: the runner, its commands and the
    // signals' handlers need Swift concurrency's threads, of which a
    // machine with one core has one.
    let failure = await withCheckedContinuation { (done: CheckedContinuation<ReadError?, Never>) in
      let started = BlockingThread.start {
        var sink = CommandSink(runner: runner)
        do throws(ReadError) {
          try StreamMode.run(stages: stages, by: by, counts: counts, into: &sink)
          done.resume(returning: nil)
        } catch {
          done.resume(returning: error)
        }
      }
      if !started { done.resume(returning: ReadError(errorNumber: EAGAIN)) }
    }
    if let failure {
      _ = Self.cannotRead(failure)
      throw ExitCode(await runner.stop(exitStatus: 1))
    }
    // A SIGINT or SIGTERM that came meanwhile decides the exit status, whichever
    // of the two paths gets there first.
    if let stopStatus = await runner.finish() { throw ExitCode(stopStatus) }
    withExtendedLifetime(signals) {}
    finish(counts)
  }

  /// Tells that the input could not be read; the exit status is 1.
  private static func cannotRead(_ error: ReadError) -> ExitCode {
    FileDescriptorOutput.standardError.write("pace: error: cannot read the input: \(error.message)\n")
    return ExitCode(1)
  }

  /// Prints the `--stats` summary, if asked for.
  private func finish(_ counts: StageCounts?) {
    if let counts { FileDescriptorOutput.standardError.write(counts.summary) }
  }
}
