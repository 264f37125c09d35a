//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// A combination of options that a pacing operator cannot run.
///
/// Pace never crashes on a bad configuration: initialisers that take options
/// throw this error, and its ``description`` says how to fix them.
///
///     do {
///       _ = try DebounceStateMachine<Int, ContinuousClock.Instant>(
///         interval: .seconds(1), leading: false, trailing: false)
///     } catch {
///       print(error)  // debounce with neither leading nor trailing would never emit: ...
///     }
public enum PacingConfigurationError: Error, Hashable, Sendable, CustomStringConvertible {
  /// A duration parameter (named by `parameter`) was negative.
  case negativeDuration(parameter: String)
  /// A count parameter (named by `parameter`) was negative.
  case negativeCount(parameter: String)
  /// Both edges were turned off for `operator`, so it would never emit.
  case neverEmits(operator: String)
  /// A debounce was given a maximum wait without its trailing edge.
  case maxWaitWithoutTrailing

  public var description: String {
    switch self {
    case .negativeDuration(let parameter):
      "\(parameter) must not be negative"
    case .negativeCount(let parameter):
      "\(parameter) must not be negative"
    case .neverEmits(let name):
      "\(name) with neither leading nor trailing would never emit: turn one of them on"
    case .maxWaitWithoutTrailing:
      "debounce max-wait needs the trailing edge: it emits the pending value, which only trailing keeps"
    }
  }
}
