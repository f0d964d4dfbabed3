import AudioFormats

extension AudioDecoder {
    /// The frames the file gives when decoded from here to its end, for a length that is exact
    /// whatever its header states: an input shorter than its stated length fails as a render would.
    public func countFramesToEnd() throws(AudioFormatError) -> Int64 {
        let chunk = 65536
        var buffer = [Float](repeating: 0, count: chunk * format.channelCount)
        var total: Int64 = 0
        while true {
            let got = try buffer.withUnsafeMutableBufferPointer { (pointer) throws(AudioFormatError) in try read(into: pointer.baseAddress!, frames: chunk) }
            total += Int64(got)
            if got < chunk { return total }
        }
    }
}
