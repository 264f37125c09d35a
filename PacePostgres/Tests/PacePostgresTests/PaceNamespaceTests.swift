//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import PacePostgres
import Testing

@Suite struct PaceNamespaceTests {
  @Test(arguments: ["pace", "notifications", "_private", "a", "fleet_2", String(repeating: "x", count: 63)])
  func init_withValidName_keepsIt(name: String) throws {
    #expect(try PaceNamespace(name).name == name)
  }

  static let invalid: [(String, PaceNamespaceError.Reason)] = [
    ("", .empty),
    (String(repeating: "x", count: 64), .tooLong(length: 64)),
    ("Orders", .invalidCharacter("O")),
    ("my-app", .invalidCharacter("-")),
    ("a b", .invalidCharacter(" ")),
    ("x\"; DROP SCHEMA public; --", .invalidCharacter("\"")),
    ("café", .invalidCharacter("é")),
    ("1st", .startsWithDigit),
    ("pg_pace", .reserved),
    ("public", .reserved),
    ("information_schema", .reserved),
  ]

  @Test(arguments: invalid)
  func init_withInvalidName_throwsTheReason(name: String, reason: PaceNamespaceError.Reason) {
    let error = #expect(throws: PaceNamespaceError.self) { try PaceNamespace(name) }
    #expect(error?.name == name)
    #expect(error?.reason == reason)
  }

  @Test func description_saysWhatAndHowToFixIt() {
    let error = #expect(throws: PaceNamespaceError.self) { try PaceNamespace("my-app") }
    #expect(
      error?.description
        == #"invalid Pace namespace "my-app": it contains "-"; use lowercase letters, digits and _"#)
  }
}
