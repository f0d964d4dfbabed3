import AudioDSP
import Testing

@Suite struct SpeakerLayoutTests {
    @Test func layoutsHaveTheirChannelsAndBS775Angles() {
        #expect(SpeakerLayout.allCases.map(\.channelCount) == [2, 4, 5, 6, 8])
        #expect(SpeakerLayout.stereo.speakerAzimuths == [-30, 30])
        #expect(SpeakerLayout.quad.speakerAzimuths == [-45, 45, -135, 135])
        #expect(SpeakerLayout.surround50.speakerAzimuths == [-30, 30, 0, -110, 110])
        #expect(SpeakerLayout.surround51.speakerAzimuths == [-30, 30, 0, nil, -110, 110])
        #expect(SpeakerLayout.surround71.speakerAzimuths == [-30, 30, 0, nil, -150, 150, -90, 90])
        #expect(SpeakerLayout.surround71.speakerNames == ["L", "R", "C", "LFE", "Lb", "Rb", "Ls", "Rs"])
        for layout in SpeakerLayout.allCases {
            #expect(layout.speakerAzimuths.count == layout.channelCount, "\(layout)")
            #expect(layout.speakerNames.count == layout.channelCount, "\(layout)")
            #expect(layout.lfeChannel == layout.speakerNames.firstIndex(of: "LFE"), "\(layout)")
            #expect(layout.lfeChannel == layout.speakerAzimuths.firstIndex { $0 == nil }, "\(layout)")
        }
        #expect(SpeakerLayout.surround51.lfeChannel == 3)
        #expect(SpeakerLayout.quad.lfeChannel == nil)
    }

    @Test func layoutsAreFoundByNameAndByChannelCount() {
        for layout in SpeakerLayout.allCases {
            #expect(SpeakerLayout.named(layout.rawValue) == layout)
            #expect(SpeakerLayout.forChannelCount(layout.channelCount) == layout)
        }
        #expect(SpeakerLayout.named("5.1") == .surround51)
        #expect(SpeakerLayout.named("6.1") == nil)
        #expect(SpeakerLayout.named("Stereo") == nil)
        #expect([1, 3, 7, 9].map(SpeakerLayout.forChannelCount) == [nil, nil, nil, nil])
    }

    /// The ITU downmix aurender already does (`ChannelMatrix.standard`, 5.1 to stereo) reads the
    /// same order: the channels it sends only to the left are the layout's left speakers, those
    /// it sends only to the right its right ones, the one it sends to both the centre, and the
    /// one it leaves out the LFE.
    @Test func fivePointOneIsInTheOrderOfTheITUDownmix() {
        let downmix = ChannelMatrix.standard(from: 6, to: 2)
        for (channel, azimuth) in SpeakerLayout.surround51.speakerAzimuths.enumerated() {
            let left = downmix.weights[0][channel], right = downmix.weights[1][channel]
            switch azimuth {
            case nil: #expect(left == 0 && right == 0, "channel \(channel)")
            case let angle? where angle < 0: #expect(left > 0 && right == 0, "channel \(channel) at \(angle)°")
            case let angle? where angle > 0: #expect(left == 0 && right > 0, "channel \(channel) at \(angle)°")
            default: #expect(left > 0 && left == right, "channel \(channel), the centre")
            }
        }
    }
}
