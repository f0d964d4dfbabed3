import CMysofa
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A set of head-related impulse responses read from a SOFA file (AES69) by libmysofa, at the
/// rate it was opened with: every `mysofa_` call is here.
///
/// Why a wrapper: libmysofa resamples the set to the graph's rate and normalizes its loudness
/// when it opens it, and interpolates between the measured directions when asked for one; this
/// type gives those answers in aurender's angles (azimuth 0 ahead, positive to the right,
/// elevation positive up) and throws typed errors that name the file. A set's lookups share a
/// scratch buffer inside libmysofa, so a set serves one renderer (one thread) at a time; the
/// lookup itself allocates nothing.
public final class HRTFSet: @unchecked Sendable {
    // @unchecked Sendable: the handle is only used by the one renderer that owns the set, on
    // whichever thread renders; nothing else reaches it.

    /// The MIT KEMAR set that Debian's `libmysofa1` ships, used when no file is given.
    public static let defaultPath = "/usr/share/libmysofa/MIT_KEMAR_normal_pinna.sofa"

    /// The file the set was read from.
    public let path: String
    /// The rate the responses are at (the file's, resampled by libmysofa).
    public let sampleRate: Double
    /// Frames per impulse response, at `sampleRate`.
    public let filterLength: Int
    /// Measured directions in the file.
    public let measurementCount: Int
    /// The longest delay the renderer adds before a response, in frames: libmysofa states a
    /// delay per ear for sets whose responses start at their onset (KEMAR's are zero).
    public let maximumDelay: Int

    private let handle: UnsafeMutablePointer<MYSOFA_EASY>

    /// Opens `path` at `sampleRate`, resampled and loudness-normalized by libmysofa; throws
    /// when libmysofa cannot read it or its receivers are not two ears.
    public init(path: String = HRTFSet.defaultPath, sampleRate: Double) throws(HRTFError) {
        var length: Int32 = 0
        var error: Int32 = 0
        guard let easy = mysofa_open(path, Float(sampleRate), &length, &error) else {
            throw HRTFError(path: path, problem: Self.describe(error))
        }
        guard let hrtf = easy.pointee.hrtf, hrtf.pointee.R == 2 else {
            let receivers = easy.pointee.hrtf?.pointee.R ?? 0
            mysofa_close(easy)
            throw HRTFError(path: path, problem: "has \(receivers) receivers, not two ears")
        }
        self.path = path
        self.sampleRate = sampleRate
        filterLength = Int(length)
        measurementCount = Int(hrtf.pointee.M)
        maximumDelay = Int((0.002 * sampleRate).rounded(.up))
        handle = easy
    }

    deinit { mysofa_close(handle) }

    /// Writes the interpolated response pair for the direction `azimuth` (degrees, positive to
    /// the right) and `elevation` (degrees, positive up) into `left` and `right`, each
    /// `filterLength + maximumDelay` frames: each ear's delay as leading zeros, then its response.
    public func responses(azimuth: Double, elevation: Double, left: UnsafeMutablePointer<Float>, right: UnsafeMutablePointer<Float>,
                          scratch: UnsafeMutablePointer<Float>) {
        let a = azimuth * .pi / 180, e = elevation * .pi / 180
        // SOFA's cartesian frame: x ahead, y to the left, z up.
        let x = Float(cos(e) * cos(a)), y = Float(-cos(e) * sin(a)), z = Float(sin(e))
        var delayLeft: Float = 0, delayRight: Float = 0
        let rightScratch = scratch + filterLength
        mysofa_getfilter_float(handle, x, y, z, scratch, rightScratch, &delayLeft, &delayRight)
        place(scratch, delay: delayLeft, into: left)
        place(rightScratch, delay: delayRight, into: right)
    }

    /// The frames a response written by `responses` takes.
    public var paddedLength: Int { filterLength + maximumDelay }

    private func place(_ response: UnsafeMutablePointer<Float>, delay seconds: Float, into target: UnsafeMutablePointer<Float>) {
        let delay = min(maximumDelay, max(0, Int((Double(seconds) * sampleRate).rounded())))
        target.update(repeating: 0, count: paddedLength)
        (target + delay).update(from: response, count: filterLength)
    }

    private static func describe(_ code: Int32) -> String {
        switch Int(code) {
        case MYSOFA_READ_ERROR: "cannot be read (missing, unreadable or not HDF5)"
        case MYSOFA_INVALID_FORMAT, MYSOFA_UNSUPPORTED_FORMAT: "is not a SOFA file libmysofa reads"
        case MYSOFA_INVALID_RECEIVER_POSITIONS, MYSOFA_RECEIVERS_WITH_RCI_SUPPORTED,
             MYSOFA_RECEIVERS_WITH_CARTESIAN_SUPPORTED: "does not place two ears as receivers"
        case MYSOFA_NO_MEMORY: "is too large to load"
        case 1..<Int(MYSOFA_INVALID_FORMAT): "cannot be opened: \(String(cString: strerror(code)))"
        default: "is not a SOFA set of head-related impulse responses libmysofa reads (error \(code))"
        }
    }
}

/// A SOFA file that cannot serve as a set of head-related transfer functions.
public struct HRTFError: Error, CustomStringConvertible, Equatable, Sendable {
    /// The file.
    public let path: String
    /// What is wrong with it.
    public let problem: String

    public var description: String { "the SOFA file \(path) \(problem)" }
}
