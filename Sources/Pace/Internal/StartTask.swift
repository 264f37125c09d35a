//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

/// Starts `body` in a task of its own, running it at once on this thread
/// until its first suspension where the platform can (`Task.immediate`), so
/// that work which returns without suspending (a cache hit, a validation
/// failure) costs no trip through an executor, for it or for its caller.
///
/// The body is a throwing closure, even one that never throws, and generic:
/// `Task` runs every body as a throwing function with an indirect result,
/// and converting a closure of another shape costs an allocation per task.
/// Call it with no lock held: the body may run here.
@inlinable
package func startTask<Success>(
  immediately: Bool = true,
  @_inheritActorContext _ body: sending @escaping @isolated(any) () async throws -> Success
) -> Task<Success, any Error> {
  if immediately, #available(macOS 26.0, iOS 26.0, tvOS 26.0, watchOS 26.0, visionOS 26.0, *) {
    return Task.immediate(operation: body)
  }
  return Task(operation: body)
}
