//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

extension PacingStateMachine {
  /// A chain of stages for a pacer, each feeding the next, with the timing
  /// contract's semantics; see ``PacingPipeline``.
  ///
  ///     let search = Pacer(.stages(.filter { !$0.isEmpty }, .distinct(), .debounce(for: .milliseconds(300)))) {
  ///       (query: String) in print(query)
  ///     }
  ///
  /// - Parameter stages: The stages, left to right.
  public static func stages<V: Sendable>(
    _ stages: PacingStage<V>...
  ) -> Self where Self == PacingPipeline<V, DriverInstant> {
    PacingPipeline(stages: stages, converting: DriverDuration.init)
  }

  /// A chain of stages given as an array (built at run time, for instance
  /// read from a configuration file), for a pacer.
  ///
  ///     let stages: [PacingStage<String>] = [.distinct(), .debounce(for: .milliseconds(300))]
  ///     let pacer = Pacer(.stages(stages)) { line in print(line) }
  ///
  /// - Parameter stages: The stages, left to right.
  public static func stages<V: Sendable>(
    _ stages: [PacingStage<V>]
  ) -> Self where Self == PacingPipeline<V, DriverInstant> {
    PacingPipeline(stages: stages, converting: DriverDuration.init)
  }
}
