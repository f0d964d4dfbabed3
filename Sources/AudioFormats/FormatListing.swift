/// What a registry reads and writes, kind by kind, as `aurender formats` lists it: made from
/// the kinds' own claims (`decodedContainers`, `writtenFormats`) and the sniffer's names, so it
/// cannot drift from what the registry does.
public struct FormatListing: Sendable {
    /// A container the registry reads by its content, and the kind that decodes it (a container
    /// whose encodings are shared out among kinds is read once for each).
    public struct Read: Sendable {
        /// The container.
        public let container: AudioContainer
        /// How the sniffer describes it (`MPEG-4 audio (AAC)`, `MPEG-4 audio (ALAC)`, …).
        public let descriptions: [String]
        /// The kind that decodes it: the first that claims it.
        public let decoder: String
        /// The only encodings `decoder` claims in it (Vorbis, for libvorbisfile in Ogg); empty
        /// when it claims every encoding, or the ones that the kinds listed before it leave.
        public let encodings: [AudioEncoding]
    }

    /// A container the registry writes, the encodings it writes in it, and the kind that encodes them.
    public struct Write: Sendable {
        /// The container.
        public let container: AudioContainer
        /// The encodings written in it.
        public let encodings: [AudioEncoding]
        /// The kind that encodes it: the first that writes it.
        public let encoder: String
    }

    /// Read containers, in the order of the kinds decoding them, then by identifier.
    public let reads: [Read]
    /// The kinds that also try inputs the sniffer does not recognise, in order.
    public let decodersOfUnrecognisedInputs: [String]
    /// Written containers, in the order of the kinds encoding them.
    public let writes: [Write]

    /// The listing of `registry`.
    public init(_ registry: FormatRegistry) {
        var reads: [Read] = []
        var writes: [Write] = []
        for kind in registry.kinds {
            for container in kind.decodedContainers.sorted(by: { $0.identifier < $1.identifier })
            where !reads.contains(where: { $0.container == container && $0.encodings.isEmpty }) {
                reads.append(Read(container: container, descriptions: FormatSniffer.Finding.descriptions(of: container), decoder: kind.name,
                                  encodings: kind.decodedEncodings[container] ?? []))
            }
            for (container, encodings) in kind.writtenFormats where !writes.contains(where: { $0.container == container }) {
                writes.append(Write(container: container, encodings: encodings, encoder: kind.name))
            }
        }
        self.reads = reads
        self.writes = writes
        decodersOfUnrecognisedInputs = registry.kinds.filter(\.triesUnrecognisedInputs).map(\.name)
    }
}
