import AudioDSP
import Foundation
import Testing

@Suite struct EqualPowerPanTests {
    @Test(arguments: [(-90.0, Float(1), Float(0)), (0, 0.7071068, 0.7071068), (90, 0, 1), (45, 0.3826834, 0.9238795)])
    func azimuthsMapOntoTheMixersPan(azimuth: Double, left: Float, right: Float) {
        let gains = EqualPowerPan.gains(azimuth: azimuth)
        #expect(abs(gains.left - left) < 1e-6 && abs(gains.right - right) < 1e-6, "\(gains)")
        let pan = EqualPowerPan.gains(pan: Float(azimuth / 90))
        #expect(gains == pan)
    }

    @Test func powerStaysTheSameAndSidesMirrorAllTheWayRound() {
        for degree in -180...180 {
            let azimuth = Double(degree)
            let gains = EqualPowerPan.gains(azimuth: azimuth), mirror = EqualPowerPan.gains(azimuth: -azimuth)
            let power = Double(gains.left * gains.left + gains.right * gains.right)
            #expect(abs(10 * log10(power)) < 0.001, "\(degree)°")
            #expect(abs(gains.left - mirror.right) < 1e-6 && abs(gains.right - mirror.left) < 1e-6, "\(degree)°")
        }
    }

    @Test func aSourceBehindIsPannedAsItsMirrorInFront() {
        #expect(EqualPowerPan.gains(azimuth: 150) == EqualPowerPan.gains(azimuth: 30))
        #expect(EqualPowerPan.gains(azimuth: -120) == EqualPowerPan.gains(azimuth: -60))
        let behind = EqualPowerPan.gains(azimuth: 180), ahead = EqualPowerPan.gains(azimuth: 0)
        #expect(abs(behind.left - ahead.left) < 1e-6 && abs(behind.right - ahead.right) < 1e-6)
    }
}
