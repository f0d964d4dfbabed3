import Testing
@testable import OpusFormats

/// The segment decoder's ring of recent packets: it gives back what it keeps, bytes and places,
/// finds the packet holding a sample, and lets the oldest go by count and by bytes.
@Suite struct PacketRingTests {
    /// Appends a packet of `size` bytes, each `fill`, starting at `start`, `frames` long.
    static func append(_ ring: PacketRing, size: Int, fill: UInt8, start: Int64, frames: Int) -> Bool {
        let bytes = [UInt8](repeating: fill, count: size)
        return bytes.withUnsafeBufferPointer { ring.append($0, start: start, frames: frames) }
    }

    @Test func keptPacketsComeBackWithTheirBytesAndPlaces() throws {
        let ring = PacketRing()
        for index in 0..<10 {
            #expect(Self.append(ring, size: 100 + index, fill: UInt8(index), start: Int64(index) * 960, frames: 960))
        }
        #expect(ring.count == 10)
        let fourth = try #require(ring.packet(3))
        #expect(fourth.start == 2_880 && fourth.frames == 960)
        #expect(Array(fourth.bytes) == [UInt8](repeating: 3, count: 103))
        #expect(ring.packet(holding: 2_880) == 3)
        #expect(ring.packet(holding: 3_839) == 3)
        #expect(ring.packet(holding: 9_600) == nil, "not read yet")
        #expect(ring.packet(10) == nil)
    }

    @Test func theOldestGiveWayByCountAndByBytes() throws {
        let ring = PacketRing()
        for index in 0..<(PacketRing.packetCapacity + 5) {
            #expect(Self.append(ring, size: 10, fill: 1, start: Int64(index) * 120, frames: 120))
        }
        #expect(ring.packet(4) == nil)
        #expect(ring.packet(holding: 4 * 120) == nil, "its packet is gone")
        #expect(ring.packet(5) != nil)
        #expect(ring.packet(holding: 5 * 120) == 5)

        let large = PacketRing()
        let size = PacketRing.byteCapacity / 4 + 1
        for index in 0..<5 {
            #expect(Self.append(large, size: size, fill: UInt8(index), start: Int64(index) * 960, frames: 960))
        }
        // Three such packets fit; each new one that does not fit after the last wraps round.
        #expect(large.packet(0) == nil && large.packet(1) == nil)
        #expect(try Array(#require(large.packet(4)).bytes) == [UInt8](repeating: 4, count: size))
        #expect(try Array(#require(large.packet(2)).bytes) == [UInt8](repeating: 2, count: size))
        #expect(!Self.append(large, size: PacketRing.byteCapacity + 1, fill: 9, start: 4_800, frames: 960), "larger than the ring")
    }
}
