/// The last packets read from a stream with where each starts, their bytes copied into one
/// buffer allocated once: what a segment decoder keeps to decode a pre-roll again when its
/// next segment follows the last directly.
///
/// Memory stays flat: the oldest packets give way to new ones, by count and by bytes. 128 KB
/// hold over 2 s of Opus at its highest bit rate (510 kb/s), and 1,024 packets 2.5 s of its
/// shortest (2.5 ms).
final class PacketRing {
    /// One kept packet: its bytes (valid until more are appended), the sample it starts at and
    /// its samples.
    struct Packet {
        let bytes: UnsafeBufferPointer<UInt8>
        let start: Int64
        let frames: Int
    }

    static let byteCapacity = 1 << 17
    static let packetCapacity = 1_024

    private let storage: UnsafeMutablePointer<UInt8>
    /// Each kept packet's first byte (counted from the first byte ever appended), size, start
    /// and samples, at its number modulo `packetCapacity`.
    private var offsets: [Int]
    private var sizes: [Int]
    private var starts: [Int64]
    private var frameCounts: [Int]
    /// Packets appended so far: the next packet's number.
    private(set) var count = 0
    /// The end of the bytes appended so far, counted from the first.
    private var end = 0

    init() {
        storage = .allocate(capacity: Self.byteCapacity)
        offsets = Array(repeating: 0, count: Self.packetCapacity)
        sizes = offsets
        frameCounts = offsets
        starts = Array(repeating: 0, count: Self.packetCapacity)
    }

    deinit { storage.deallocate() }

    /// Keeps `bytes`, starting at sample `start` and `frames` long, as packet number `count`;
    /// false (nothing kept) for a packet larger than the buffer.
    func append(_ bytes: UnsafeBufferPointer<UInt8>, start: Int64, frames: Int) -> Bool {
        guard bytes.count <= Self.byteCapacity, let base = bytes.baseAddress else { return false }
        var offset = end
        if offset % Self.byteCapacity + bytes.count > Self.byteCapacity {
            offset += Self.byteCapacity - offset % Self.byteCapacity
        }
        (storage + offset % Self.byteCapacity).update(from: base, count: bytes.count)
        let slot = count % Self.packetCapacity
        offsets[slot] = offset
        sizes[slot] = bytes.count
        starts[slot] = start
        frameCounts[slot] = frames
        count += 1
        end = offset + bytes.count
        return true
    }

    /// Packet number `index`, nil where it has given way to newer ones (or is yet to come).
    func packet(_ index: Int) -> Packet? {
        guard index < count, index >= count - Self.packetCapacity else { return nil }
        let slot = index % Self.packetCapacity
        guard offsets[slot] >= end - Self.byteCapacity else { return nil }
        return Packet(bytes: UnsafeBufferPointer(start: storage + offsets[slot] % Self.byteCapacity, count: sizes[slot]),
                      start: starts[slot], frames: frameCounts[slot])
    }

    /// The number of the kept packet that holds sample `sample`, nil where that packet is no
    /// longer kept (or not read yet).
    func packet(holding sample: Int64) -> Int? {
        for index in max(0, count - Self.packetCapacity)..<count {
            guard let packet = packet(index) else { continue }
            if packet.start > sample { return nil }
            if packet.start + Int64(packet.frames) > sample { return index }
        }
        return nil
    }
}
