/// Markers read from and written as chunks: WAV's `cue ` points with the labels, notes and
/// regions of its `LIST adtl` chunk, and AIFF's `MARK` markers.
enum MarkerChunks {
    /// Why a marker chunk could not be read.
    struct Damage: Error {
        var reason: String
    }

    /// The markers of a WAV's `cue ` body, labelled from its `LIST adtl` body when there is one,
    /// in the order of their positions.
    static func wave(cue: [UInt8], labels: [UInt8]?) throws(Damage) -> [Marker] {
        guard cue.count >= 4 else { throw Damage(reason: "the cue chunk holds \(cue.count) bytes, too few for its count") }
        let count = Int(Bytes.littleUInt32(cue, 0))
        guard count <= (cue.count - 4) / 24 else {
            throw Damage(reason: "the cue chunk states \(count) points but holds room for \((cue.count - 4) / 24)")
        }
        var markers: [UInt32: Marker] = [:]
        var order: [UInt32] = []
        for index in 0..<count {
            let at = 4 + 24 * index
            let id = Bytes.littleUInt32(cue, at)
            if markers[id] == nil { order.append(id) }
            markers[id] = Marker(frame: Int64(Bytes.littleUInt32(cue, at + 20)))
        }
        if let labels, labels.count >= 4, String(decoding: labels[0..<4], as: UTF8.self) == "adtl" {
            var position = 4
            while position + 8 <= labels.count {
                let id = String(decoding: labels[position..<position + 4], as: UTF8.self)
                let size = Int(Bytes.littleUInt32(labels, position + 4))
                let body = position + 8
                guard size >= 4, body + size <= labels.count else { break }
                let point = Bytes.littleUInt32(labels, body)
                switch id {
                case "labl": markers[point]?.label = Bytes.text(labels[body + 4..<body + size])
                case "note": markers[point]?.note = Bytes.text(labels[body + 4..<body + size])
                case "ltxt" where size >= 20:
                    markers[point]?.length = Int64(Bytes.littleUInt32(labels, body + 4))
                    let text = Bytes.text(labels[body + 20..<body + size])
                    if !text.isEmpty, markers[point]?.note.isEmpty == true { markers[point]?.note = text }
                default: break
                }
                position = body + size + size % 2
            }
        }
        return order.compactMap { markers[$0] }.sorted { $0.frame < $1.frame }
    }

    /// The `cue ` body and the `LIST` body (`adtl`, nil when no marker has a text or a length) of `markers`, numbered from 1.
    static func wave(_ markers: [Marker]) -> (cue: [UInt8], labels: [UInt8]?) {
        var cue = Bytes.little(UInt32(markers.count))
        var labels = Array("adtl".utf8)
        func text(_ id: String, _ point: UInt32, _ prefix: [UInt8], _ text: String) {
            let body = Bytes.little(point) + prefix + Array(text.utf8) + [0]
            labels += Array(id.utf8) + Bytes.little(UInt32(body.count)) + body + (body.count % 2 == 1 ? [0] : [])
        }
        for (index, marker) in markers.enumerated() {
            let point = UInt32(index + 1)
            cue += Bytes.little(point) + Bytes.little(UInt32(clamping: marker.frame)) + Array("data".utf8)
                + Bytes.little(UInt32(0)) + Bytes.little(UInt32(0)) + Bytes.little(UInt32(clamping: marker.frame))
            if !marker.label.isEmpty { text("labl", point, [], marker.label) }
            if !marker.note.isEmpty { text("note", point, [], marker.note) }
            if marker.isRegion {
                text("ltxt", point, Bytes.little(UInt32(clamping: marker.length)) + Array("rgn ".utf8) + [UInt8](repeating: 0, count: 8), "")
            }
        }
        return (cue, labels.count > 4 ? labels : nil)
    }

    /// The markers of an AIFF `MARK` body, in the order of their positions.
    static func aiff(_ body: [UInt8]) throws(Damage) -> [Marker] {
        guard body.count >= 2 else { throw Damage(reason: "the MARK chunk holds \(body.count) bytes, too few for its count") }
        let count = Int(Bytes.bigUInt16(body, 0))
        var markers: [Marker] = []
        var position = 2
        for _ in 0..<count {
            guard position + 7 <= body.count else {
                throw Damage(reason: "the MARK chunk states \(count) markers but ends after \(markers.count)")
            }
            let length = Int(body[position + 6])
            guard position + 7 + length <= body.count else {
                throw Damage(reason: "the MARK chunk states \(count) markers but ends after \(markers.count)")
            }
            markers.append(Marker(frame: Int64(Bytes.bigUInt32(body, position + 2)),
                                  label: Bytes.text(body[position + 7..<position + 7 + length])))
            position += 7 + length + (length % 2 == 0 ? 1 : 0)
        }
        return markers.sorted { $0.frame < $1.frame }
    }

    /// The `MARK` body of `markers`, numbered from 1; regions are marked at their starts.
    static func aiff(_ markers: [Marker]) -> [UInt8] {
        var body = Bytes.big(UInt16(clamping: markers.count))
        for (index, marker) in markers.prefix(Int(UInt16.max)).enumerated() {
            let name = Array(marker.label.utf8.prefix(255))
            body += Bytes.big(UInt16(index + 1)) + Bytes.big(UInt32(clamping: marker.frame)) + [UInt8(name.count)] + name
            if name.count % 2 == 0 { body.append(0) }
        }
        return body
    }
}
