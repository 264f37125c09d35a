//===----------------------------------------------------------------------===//
// This source file is part of the Pace open source project.
// Licensed under Apache License v2.0. See LICENSE.txt for license information.
//===----------------------------------------------------------------------===//

import Pace
import PaceMarbles
import Testing

@Suite struct VirtualInstantTests {
  @Test func frames_areVirtualSeconds() {
    #expect(Duration.frames(3) == .seconds(3))
    #expect(VirtualInstant.frame(2).advanced(by: .frames(3)) == .frame(5))
    #expect(VirtualInstant.frame(2).duration(to: .frame(7)) == .frames(5))
    #expect(VirtualInstant.frame(1) < .frame(2))
  }

  @Test func frame_ofAnInstantBetweenFrames_isTheNextFrame() {
    #expect(VirtualInstant.frame(4).frame == 4)
    #expect(VirtualInstant(offset: .milliseconds(4_001)).frame == 5)
    #expect(VirtualInstant.frame(4).description == "frame 4")
  }
}
