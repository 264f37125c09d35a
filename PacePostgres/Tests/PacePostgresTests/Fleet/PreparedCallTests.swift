//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

@testable import PacePostgres
import Testing

/// The names of the prepared calls: one per text in the process, short
/// enough for the server to keep whole.
@Suite struct PreparedCallTests {
  @Test func oneText_oneName_anotherText_anotherName() throws {
    let long = try PaceNamespace("n" + String(repeating: "a", count: 61) + "1")
    let alike = try PaceNamespace("n" + String(repeating: "a", count: 61) + "2")
    let calls = FleetCalls(namespace: long)
    let again = FleetCalls(namespace: long)
    let other = FleetCalls(namespace: alike)
    let texts = [calls.sendStep, calls.send, calls.fire, calls.settle, calls.alarm]
    let otherTexts = [other.sendStep, other.send, other.fire, other.settle, other.alarm]
    #expect([again.sendStep, again.send, again.fire, again.settle, again.alarm].map(\.name) == texts.map(\.name))
    #expect(Set((texts + otherTexts).map(\.name)).count == 10)
    // The server keeps 63 bytes of a name.
    #expect((texts + otherTexts).allSatisfy { $0.name.utf8.count <= 63 })
    #expect(calls.fire.sql.contains(long.quoted + ".pace_fire("))
  }
}
