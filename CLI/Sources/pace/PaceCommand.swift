//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import ArgumentParser

/// `pace`: paces lines and commands with the operators of the Pace library.
///
/// `pace STAGE...` is `pace stream STAGE...`, the default subcommand. The
/// root asks for no help flags of its own, so `pace --help` is the stream
/// command's help, with every option of the command most people run;
/// `pace help` lists the subcommands.
@main
struct PaceCommand: AsyncParsableCommand {
  static let configuration = CommandConfiguration(
    commandName: "pace",
    abstract: "Limits and orders work that happens too often: debounce, throttle, distinct, filter, skip, take.",
    subcommands: [StreamCommand.self, MarbleCommand.self, DemoCommand.self],
    defaultSubcommand: StreamCommand.self,
    helpNames: []
  )
}
