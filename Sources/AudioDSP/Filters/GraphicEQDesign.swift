/// Turns a graphic EQ's band gains into the gains of its peaking sections.
///
/// Neighbouring bands overlap, so a plain cascade with each section at its band's gain
/// (`classic`) misses the gains at the band centres by up to about 1.8 dB. `accurate` solves
/// the interaction: it finds the section gains for which the cascade's response at every band
/// centre is the band's gain, by Newton's method on the response in dB.
public enum GraphicEQDesign {
    /// How band gains become section gains.
    public enum Mode: String, Sendable, CaseIterable {
        /// Each section at its band's gain: the traditional cascade.
        case classic
        /// Section gains solved so the cascade hits every band gain at its centre.
        case accurate
    }

    /// One band: a peaking section's centre and bandwidth.
    public struct Band: Equatable, Sendable {
        public var frequency: Double
        public var q: Double
        public init(frequency: Double, q: Double) {
            self.frequency = frequency
            self.q = q
        }
    }

    /// The section gains, in dB, for `gains` at `bands` (parallel arrays) at `sampleRate`.
    /// Bands at or above 0.45 × the sample rate are left out: their section gain is 0.
    public static func sectionGains(for gains: [Double], bands: [Band], sampleRate: Double,
                                    mode: Mode) throws(FilterDesignError) -> [Double] {
        precondition(gains.count == bands.count, "one gain per band")
        for gain in gains where !(gain.isFinite && abs(gain) <= 40) { throw .invalidGain(gain) }
        let usable = bands.indices.filter { isUsable(bands[$0], sampleRate: sampleRate) }
        var result = [Double](repeating: 0, count: bands.count)
        for index in usable { result[index] = gains[index] }
        guard mode == .accurate, usable.contains(where: { gains[$0] != 0 }) else { return result }

        let shapes = try usable.map { index throws(FilterDesignError) in
            try PeakingShape(frequency: bands[index].frequency, q: bands[index].q, sampleRate: sampleRate)
        }
        let problem = Problem(shapes: shapes, centres: usable.map { bands[$0].frequency },
                              targets: usable.map { gains[$0] }, sampleRate: sampleRate)
        var sections = Array(usable.indices)
        var solved = try problem.solve(sections)
        // Sections the solution barely uses are dropped (they then cost nothing) while every
        // centre stays within `pruneTolerance` of its gain.
        while let smallest = sections.min(by: { abs(solved[$0]) < abs(solved[$1]) }), abs(solved[smallest]) < pruneBelow {
            let fewer = sections.filter { $0 != smallest }
            guard let candidate = try? problem.solve(fewer), problem.worstError(candidate) <= pruneTolerance else { break }
            sections = fewer
            solved = candidate
        }
        for (slot, index) in usable.enumerated() { result[index] = solved[slot] }
        return result
    }

    /// Section gains below this (dB) are candidates for dropping in accurate mode.
    static let pruneBelow = 0.05
    /// The most a centre may miss its gain (dB) after sections are dropped.
    public static let pruneTolerance = 0.02

    /// The accurate design's equations: the cascade of `shapes` must give `targets` at `centres`.
    private struct Problem {
        let shapes: [PeakingShape]
        let centres: [Double]
        let targets: [Double]
        let sampleRate: Double

        /// Gains (all sections; those not in `free` stay 0) for which the centres of the
        /// `free` sections hit their targets exactly.
        func solve(_ free: [Int]) throws(FilterDesignError) -> [Double] {
            var gains = [Double](repeating: 0, count: shapes.count)
            for index in free { gains[index] = targets[index] }
            var worst = Double.infinity
            for _ in 0..<50 {
                let response = self.response(gains)
                let errors = free.map { targets[$0] - response[$0] }
                worst = errors.map(abs).max() ?? 0
                if worst < 1e-7 { break }
                let jacobian = free.map { row in free.map { column in sensitivity(of: column, at: centres[row], gains) } }
                guard let step = GraphicEQDesign.solveLinearSystem(jacobian, errors) else { break }
                for (slot, index) in free.enumerated() { gains[index] += step[slot] }
                if gains.contains(where: { !$0.isFinite || abs($0) > 60 }) { break }
            }
            guard worst < 0.001 else { throw .unreachableGains(worstErrorDB: worst) }
            return gains
        }

        /// The largest miss, in dB, over every centre.
        func worstError(_ gains: [Double]) -> Double {
            zip(targets, response(gains)).map { abs($0 - $1) }.max() ?? 0
        }

        func response(_ gains: [Double]) -> [Double] {
            centres.map { frequency in
                zip(gains, shapes).reduce(0) { sum, pair in
                    pair.0 == 0 ? sum : sum + pair.1.coefficients(amplitude: amplitude(pair.0)).magnitude(at: frequency, sampleRate: sampleRate)
                }
            }
        }

        /// ∂(response at `frequency`)/∂(gain of section `section`), by central differences.
        func sensitivity(of section: Int, at frequency: Double, _ gains: [Double]) -> Double {
            let h = 1e-4
            let up = shapes[section].coefficients(amplitude: amplitude(gains[section] + h)).magnitude(at: frequency, sampleRate: sampleRate)
            let down = shapes[section].coefficients(amplitude: amplitude(gains[section] - h)).magnitude(at: frequency, sampleRate: sampleRate)
            return (up - down) / (2 * h)
        }
    }

    /// Whether the band can be realised at `sampleRate` (its centre is below 0.45 × the rate).
    public static func isUsable(_ band: Band, sampleRate: Double) -> Bool {
        band.frequency < 0.45 * sampleRate
    }

    /// The cascade's response in dB at `frequency`, for section gains `gains` at `bands`.
    public static func cascadeMagnitude(sectionGains gains: [Double], bands: [Band], at frequency: Double,
                                        sampleRate: Double) -> Double {
        var total = 0.0
        for (gain, band) in zip(gains, bands) where gain != 0 && isUsable(band, sampleRate: sampleRate) {
            if let coefficients = try? BiquadCoefficients.peaking(frequency: band.frequency, gain: gain, q: band.q,
                                                                 sampleRate: sampleRate) {
                total += coefficients.magnitude(at: frequency, sampleRate: sampleRate)
            }
        }
        return total
    }



    /// Solves `matrix` × x = `vector` by Gaussian elimination with partial pivoting.
    static func solveLinearSystem(_ matrix: [[Double]], _ vector: [Double]) -> [Double]? {
        var a = matrix, b = vector
        let n = b.count
        for column in 0..<n {
            guard let pivot = (column..<n).max(by: { abs(a[$0][column]) < abs(a[$1][column]) }),
                  abs(a[pivot][column]) > 1e-12 else { return nil }
            a.swapAt(column, pivot)
            b.swapAt(column, pivot)
            for row in (column + 1)..<n {
                let factor = a[row][column] / a[column][column]
                for k in column..<n { a[row][k] -= factor * a[column][k] }
                b[row] -= factor * b[column]
            }
        }
        var x = [Double](repeating: 0, count: n)
        for row in stride(from: n - 1, through: 0, by: -1) {
            let known = ((row + 1)..<n).reduce(0) { $0 + a[row][$1] * x[$1] }
            x[row] = (b[row] - known) / a[row][row]
        }
        return x
    }
}

/// The linear amplitude of a peaking section's gain: 10^(gain/40).
private func amplitude(_ gain: Double) -> Double { pow10(gain / 40) }
