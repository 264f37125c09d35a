//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Which values a throttle emits: the one that opens a window, at once
/// (leading), the latest of a window when it ends (trailing), or both.
///
/// Every case can run: there is no "neither edge".
///
///     let progress = Throttler<Double>(for: .milliseconds(100)) { … }        // .both
///     let submit = Throttler<Void>(for: .seconds(1), edges: .leading) { … }  // a double tap is dropped
///
///     input:                abcdefghijk|
///     throttle 3, .both:    a--d--g--j--[k|]
///     throttle 3, .leading: a---e---i--|
///     throttle 3, .trailing: ---d--g--j--[k|]
public enum ThrottleEdges: Hashable, Sendable {
  /// A value that arrives while idle is emitted at once; the rest of its
  /// window is dropped.
  case leading
  /// The latest value of each window is emitted when the window ends.
  case trailing
  /// Both: the first value at once, the latest of each window at its end.
  case both

  /// The default: ``both``.
  public static var `default`: Self { .both }

  /// Whether a value that arrives while idle is emitted at once.
  public var leading: Bool { self != .trailing }

  /// Whether the latest value of a window is emitted when the window ends.
  public var trailing: Bool { self != .leading }
}
