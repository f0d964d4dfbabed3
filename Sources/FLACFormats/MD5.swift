/// MD5 (RFC 1321) of a stream of bytes: STREAMINFO's signature of a stream's samples, which
/// libFLAC computes only within one encoder and so cannot give for a stream encoded in chunks.
final class MD5 {
    private var a: UInt32 = 0x6745_2301, b: UInt32 = 0xEFCD_AB89, c: UInt32 = 0x98BA_DCFE, d: UInt32 = 0x1032_5476
    /// Bytes of an unfinished 64-byte block.
    private let pending = UnsafeMutableRawPointer.allocate(byteCount: 64, alignment: 8)
    private var pendingCount = 0
    private var length: UInt64 = 0

    init() {}

    deinit { pending.deallocate() }

    /// Adds `count` bytes at `bytes` to the message.
    func update(_ bytes: UnsafeRawPointer, count: Int) {
        length &+= UInt64(count)
        var offset = 0
        if pendingCount > 0 {
            let taken = min(64 - pendingCount, count)
            (pending + pendingCount).copyMemory(from: bytes, byteCount: taken)
            pendingCount += taken
            offset = taken
            guard pendingCount == 64 else { return }
            block(UnsafeRawPointer(pending))
            pendingCount = 0
        }
        while count - offset >= 64 {
            block(bytes + offset)
            offset += 64
        }
        pendingCount = count - offset
        pending.copyMemory(from: bytes + offset, byteCount: pendingCount)
    }

    /// The digest of the message so far, in the order it is written (the hasher is then spent).
    func finish() -> [UInt8] {
        let bits = length &* 8
        var padding = [UInt8](repeating: 0, count: (pendingCount < 56 ? 56 : 120) - pendingCount)
        padding[0] = 0x80
        padding.withUnsafeBytes { update($0.baseAddress!, count: $0.count) }
        withUnsafeBytes(of: bits.littleEndian) { update($0.baseAddress!, count: 8) }
        return [a, b, c, d].flatMap { word in (0..<4).map { UInt8(truncatingIfNeeded: word >> (8 * $0)) } }
    }

    @inline(__always) private func rotate(_ value: UInt32, _ count: UInt32) -> UInt32 { value << count | value >> (32 - count) }

    /// One 64-byte block, the 64 steps written out.
    private func block(_ bytes: UnsafeRawPointer) {
        let m0 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        let m1 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        let m2 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt32.self))
        let m3 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 12, as: UInt32.self))
        let m4 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt32.self))
        let m5 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 20, as: UInt32.self))
        let m6 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt32.self))
        let m7 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 28, as: UInt32.self))
        let m8 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 32, as: UInt32.self))
        let m9 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 36, as: UInt32.self))
        let m10 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 40, as: UInt32.self))
        let m11 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 44, as: UInt32.self))
        let m12 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 48, as: UInt32.self))
        let m13 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 52, as: UInt32.self))
        let m14 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 56, as: UInt32.self))
        let m15 = UInt32(littleEndian: bytes.loadUnaligned(fromByteOffset: 60, as: UInt32.self))
        var a = self.a, b = self.b, c = self.c, d = self.d
        a = b &+ rotate(a &+ ((b & c) | (~b & d)) &+ 0xD76AA478 &+ m0, 7)
        d = a &+ rotate(d &+ ((a & b) | (~a & c)) &+ 0xE8C7B756 &+ m1, 12)
        c = d &+ rotate(c &+ ((d & a) | (~d & b)) &+ 0x242070DB &+ m2, 17)
        b = c &+ rotate(b &+ ((c & d) | (~c & a)) &+ 0xC1BDCEEE &+ m3, 22)
        a = b &+ rotate(a &+ ((b & c) | (~b & d)) &+ 0xF57C0FAF &+ m4, 7)
        d = a &+ rotate(d &+ ((a & b) | (~a & c)) &+ 0x4787C62A &+ m5, 12)
        c = d &+ rotate(c &+ ((d & a) | (~d & b)) &+ 0xA8304613 &+ m6, 17)
        b = c &+ rotate(b &+ ((c & d) | (~c & a)) &+ 0xFD469501 &+ m7, 22)
        a = b &+ rotate(a &+ ((b & c) | (~b & d)) &+ 0x698098D8 &+ m8, 7)
        d = a &+ rotate(d &+ ((a & b) | (~a & c)) &+ 0x8B44F7AF &+ m9, 12)
        c = d &+ rotate(c &+ ((d & a) | (~d & b)) &+ 0xFFFF5BB1 &+ m10, 17)
        b = c &+ rotate(b &+ ((c & d) | (~c & a)) &+ 0x895CD7BE &+ m11, 22)
        a = b &+ rotate(a &+ ((b & c) | (~b & d)) &+ 0x6B901122 &+ m12, 7)
        d = a &+ rotate(d &+ ((a & b) | (~a & c)) &+ 0xFD987193 &+ m13, 12)
        c = d &+ rotate(c &+ ((d & a) | (~d & b)) &+ 0xA679438E &+ m14, 17)
        b = c &+ rotate(b &+ ((c & d) | (~c & a)) &+ 0x49B40821 &+ m15, 22)
        a = b &+ rotate(a &+ ((d & b) | (~d & c)) &+ 0xF61E2562 &+ m1, 5)
        d = a &+ rotate(d &+ ((c & a) | (~c & b)) &+ 0xC040B340 &+ m6, 9)
        c = d &+ rotate(c &+ ((b & d) | (~b & a)) &+ 0x265E5A51 &+ m11, 14)
        b = c &+ rotate(b &+ ((a & c) | (~a & d)) &+ 0xE9B6C7AA &+ m0, 20)
        a = b &+ rotate(a &+ ((d & b) | (~d & c)) &+ 0xD62F105D &+ m5, 5)
        d = a &+ rotate(d &+ ((c & a) | (~c & b)) &+ 0x02441453 &+ m10, 9)
        c = d &+ rotate(c &+ ((b & d) | (~b & a)) &+ 0xD8A1E681 &+ m15, 14)
        b = c &+ rotate(b &+ ((a & c) | (~a & d)) &+ 0xE7D3FBC8 &+ m4, 20)
        a = b &+ rotate(a &+ ((d & b) | (~d & c)) &+ 0x21E1CDE6 &+ m9, 5)
        d = a &+ rotate(d &+ ((c & a) | (~c & b)) &+ 0xC33707D6 &+ m14, 9)
        c = d &+ rotate(c &+ ((b & d) | (~b & a)) &+ 0xF4D50D87 &+ m3, 14)
        b = c &+ rotate(b &+ ((a & c) | (~a & d)) &+ 0x455A14ED &+ m8, 20)
        a = b &+ rotate(a &+ ((d & b) | (~d & c)) &+ 0xA9E3E905 &+ m13, 5)
        d = a &+ rotate(d &+ ((c & a) | (~c & b)) &+ 0xFCEFA3F8 &+ m2, 9)
        c = d &+ rotate(c &+ ((b & d) | (~b & a)) &+ 0x676F02D9 &+ m7, 14)
        b = c &+ rotate(b &+ ((a & c) | (~a & d)) &+ 0x8D2A4C8A &+ m12, 20)
        a = b &+ rotate(a &+ (b ^ c ^ d) &+ 0xFFFA3942 &+ m5, 4)
        d = a &+ rotate(d &+ (a ^ b ^ c) &+ 0x8771F681 &+ m8, 11)
        c = d &+ rotate(c &+ (d ^ a ^ b) &+ 0x6D9D6122 &+ m11, 16)
        b = c &+ rotate(b &+ (c ^ d ^ a) &+ 0xFDE5380C &+ m14, 23)
        a = b &+ rotate(a &+ (b ^ c ^ d) &+ 0xA4BEEA44 &+ m1, 4)
        d = a &+ rotate(d &+ (a ^ b ^ c) &+ 0x4BDECFA9 &+ m4, 11)
        c = d &+ rotate(c &+ (d ^ a ^ b) &+ 0xF6BB4B60 &+ m7, 16)
        b = c &+ rotate(b &+ (c ^ d ^ a) &+ 0xBEBFBC70 &+ m10, 23)
        a = b &+ rotate(a &+ (b ^ c ^ d) &+ 0x289B7EC6 &+ m13, 4)
        d = a &+ rotate(d &+ (a ^ b ^ c) &+ 0xEAA127FA &+ m0, 11)
        c = d &+ rotate(c &+ (d ^ a ^ b) &+ 0xD4EF3085 &+ m3, 16)
        b = c &+ rotate(b &+ (c ^ d ^ a) &+ 0x04881D05 &+ m6, 23)
        a = b &+ rotate(a &+ (b ^ c ^ d) &+ 0xD9D4D039 &+ m9, 4)
        d = a &+ rotate(d &+ (a ^ b ^ c) &+ 0xE6DB99E5 &+ m12, 11)
        c = d &+ rotate(c &+ (d ^ a ^ b) &+ 0x1FA27CF8 &+ m15, 16)
        b = c &+ rotate(b &+ (c ^ d ^ a) &+ 0xC4AC5665 &+ m2, 23)
        a = b &+ rotate(a &+ (c ^ (b | ~d)) &+ 0xF4292244 &+ m0, 6)
        d = a &+ rotate(d &+ (b ^ (a | ~c)) &+ 0x432AFF97 &+ m7, 10)
        c = d &+ rotate(c &+ (a ^ (d | ~b)) &+ 0xAB9423A7 &+ m14, 15)
        b = c &+ rotate(b &+ (d ^ (c | ~a)) &+ 0xFC93A039 &+ m5, 21)
        a = b &+ rotate(a &+ (c ^ (b | ~d)) &+ 0x655B59C3 &+ m12, 6)
        d = a &+ rotate(d &+ (b ^ (a | ~c)) &+ 0x8F0CCC92 &+ m3, 10)
        c = d &+ rotate(c &+ (a ^ (d | ~b)) &+ 0xFFEFF47D &+ m10, 15)
        b = c &+ rotate(b &+ (d ^ (c | ~a)) &+ 0x85845DD1 &+ m1, 21)
        a = b &+ rotate(a &+ (c ^ (b | ~d)) &+ 0x6FA87E4F &+ m8, 6)
        d = a &+ rotate(d &+ (b ^ (a | ~c)) &+ 0xFE2CE6E0 &+ m15, 10)
        c = d &+ rotate(c &+ (a ^ (d | ~b)) &+ 0xA3014314 &+ m6, 15)
        b = c &+ rotate(b &+ (d ^ (c | ~a)) &+ 0x4E0811A1 &+ m13, 21)
        a = b &+ rotate(a &+ (c ^ (b | ~d)) &+ 0xF7537E82 &+ m4, 6)
        d = a &+ rotate(d &+ (b ^ (a | ~c)) &+ 0xBD3AF235 &+ m11, 10)
        c = d &+ rotate(c &+ (a ^ (d | ~b)) &+ 0x2AD7D2BB &+ m2, 15)
        b = c &+ rotate(b &+ (d ^ (c | ~a)) &+ 0xEB86D391 &+ m9, 21)
        self.a &+= a
        self.b &+= b
        self.c &+= c
        self.d &+= d
    }
}
