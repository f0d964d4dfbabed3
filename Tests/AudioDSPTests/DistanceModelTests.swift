import AudioDSP
import Foundation
import Testing

@Suite struct DistanceModelTests {
    @Test func defaultsAreAVAudioEnvironmentNodes() {
        let model = DistanceModel()
        #expect(model.kind == .inverse && model.referenceDistance == 1 && model.maximumDistance == 100_000 && model.rolloffFactor == 1)
        #expect(DistanceModel.Kind.allCases.map(\.rawValue) == ["inverse", "linear", "exponential"])
    }

    @Test(arguments: DistanceModel.Kind.allCases)
    func gainsFollowTheClosedFormsAndClamp(kind: DistanceModel.Kind) {
        let reference = 2.0, maximum = 50.0, rolloff = 0.8
        let model = DistanceModel(kind: kind, referenceDistance: reference, maximumDistance: maximum, rolloffFactor: rolloff)
        func expected(_ d: Double) -> Double {
            switch kind {
            case .inverse: reference / (reference + rolloff * (d - reference))
            case .linear: 1 - rolloff * (d - reference) / (maximum - reference)
            case .exponential: pow(d / reference, -rolloff)
            }
        }
        for distance in [2.0, 3, 7.5, 20, 49.9, 50] {
            #expect(abs(Double(model.gain(distance: distance)) - expected(distance)) < 1e-6, "\(kind) at \(distance) m")
        }
        for nearer in [-1.0, 0, 0.5, 1.99] { #expect(model.gain(distance: nearer) == 1, "\(kind) at \(nearer) m") }
        for farther in [50.01, 80, 1e9] {
            #expect(model.gain(distance: farther) == model.gain(distance: maximum), "\(kind) at \(farther) m")
        }
    }

    @Test func knownValues() {
        #expect(abs(DistanceModel().gain(distance: 2) - 0.5) < 1e-7, "inverse: 1/(1 + (2 − 1))")
        #expect(abs(DistanceModel().gain(distance: 10) - 0.1) < 1e-7)
        #expect(abs(DistanceModel(kind: .exponential, rolloffFactor: 2).gain(distance: 4) - 1.0 / 16) < 1e-7)
        let linear = DistanceModel(kind: .linear, referenceDistance: 1, maximumDistance: 11)
        #expect(abs(linear.gain(distance: 6) - 0.5) < 1e-7)
        #expect(linear.gain(distance: 11) == 0)
        #expect(DistanceModel(kind: .linear, maximumDistance: 11, rolloffFactor: 3).gain(distance: 10) == 0, "never below 0")
        #expect(DistanceModel(kind: .linear, referenceDistance: 5, maximumDistance: 5).gain(distance: 9) == 1)
        #expect(DistanceModel(rolloffFactor: 0).gain(distance: 1000) == 1)
    }

    @Test func settingsThatMakeNoModelAreRefused() throws {
        try DistanceModel().validate()
        try DistanceModel(kind: .linear, referenceDistance: 3, maximumDistance: 3, rolloffFactor: 0).validate()
        #expect(throws: DistanceModelError.referenceDistance(0)) { try DistanceModel(referenceDistance: 0).validate() }
        #expect(throws: DistanceModelError.maximumDistance(1, reference: 2)) {
            try DistanceModel(referenceDistance: 2, maximumDistance: 1).validate()
        }
        #expect(throws: DistanceModelError.rolloffFactor(-1)) { try DistanceModel(rolloffFactor: -1).validate() }
        #expect("\(DistanceModelError.maximumDistance(1, reference: 2))"
            == "the maximum distance must be at least the reference distance (2.0 m), not 1.0")
    }
}
