import Foundation

/// A soap film's colour, by interference: what the phone's Bubbles tool draws
/// (`xr/bubbles/thin-film.js`), computed here for the colour the project's USDZ bakes into each
/// pane.
///
/// A film of index ``index`` in air, `d` nm thick, seen at an angle θ reflects
/// R(λ) = ½ (Rₛ + Rₚ), each the Airy sum of every reflection inside the film,
/// R = 2 r² (1 − cos δ) / (1 − 2 r² cos δ + r⁴), with r the exact Fresnel amplitude at the air→film
/// face for that polarisation and δ = 4π n d cos θₜ / λ. That spectrum, weighed by CIE standard
/// illuminant D65 and the CIE 1931 2° observer every 5 nm from 380 to 780 nm (a perfect white
/// reflector giving Y = 1), is the film's colour in linear sRGB.
///
/// ```swift
/// let colour = ThinFilm().color(thickness: 400)   // linear sRGB, a few per cent
/// ```
public struct ThinFilm: Sendable {
    /// The film's refractive index (soapy water's by default).
    public var index: Double

    /// Creates a film of `index`; an index below 1 (or not a number) is taken as 1, a film that
    /// reflects nothing.
    public init(index: Double = 1.33) {
        self.index = index >= 1 && index.isFinite ? index : 1
    }

    /// The film's reflected colour in linear sRGB, not clipped, for a film `thickness` nm thick seen
    /// at `cosAngle` (cos θ, 1 face on).
    public func color(thickness: Double, cosAngle: Double = 1) -> SIMD3<Double> {
        let cosI = min(max(cosAngle, 0), 1)
        let sinT = (1 - cosI * cosI).squareRoot() / index
        let cosT = (1 - sinT * sinT).squareRoot()
        let rs = (cosI - index * cosT) / (cosI + index * cosT)
        let rp = (index * cosI - cosT) / (index * cosI + cosT)
        let path = 4 * Double.pi * index * max(thickness, 0) * cosT
        var sum = SIMD3<Double>.zero
        for (k, weight) in Self.weights.enumerated() {
            let cosDelta = cos(path / (Self.firstWavelength + Self.wavelengthStep * Double(k)))
            sum += 0.5 * (Self.airy(rs, cosDelta) + Self.airy(rp, cosDelta)) * weight
        }
        return sum
    }

    /// The Airy sum's reflectance for a face whose Fresnel amplitude is `r`, at phase cos δ.
    private static func airy(_ r: Double, _ cosDelta: Double) -> Double {
        let r2 = r * r
        return 2 * r2 * (1 - cosDelta) / max(1 - 2 * r2 * cosDelta + r2 * r2, 1e-12)
    }

    /// The first wavelength sampled and the step between samples (nm).
    static let firstWavelength = 380.0
    static let wavelengthStep = 5.0

    /// One linear-sRGB weight per sampled wavelength: Σ R(λₖ) · wₖ is the colour of a surface
    /// reflecting R(λ) under D65, a perfect white reflector giving Y = 1.
    static let weights: [SIMD3<Double>] = {
        let rows = stride(from: 0, to: table.count, by: 4).map { Array(table[$0..<$0 + 4]) }
        let white = rows.reduce(0) { $0 + $1[0] * $1[2] }
        return rows.map { row in
            let xyz = SIMD3(row[1], row[2], row[3]) * (row[0] / white)
            return SIMD3(
                (xyzToSRGB[0] * xyz).sum(), (xyzToSRGB[1] * xyz).sum(), (xyzToSRGB[2] * xyz).sum())
        }
    }()

    /// XYZ to linear sRGB (IEC 61966-2-1), rows.
    private static let xyzToSRGB: [SIMD3<Double>] = [
        SIMD3(3.2404542, -1.5371385, -0.4985314), SIMD3(-0.969266, 1.8760108, 0.041556),
        SIMD3(0.0556434, -0.2040259, 1.0572252),
    ]

    /// Every 5 nm from 380 to 780 nm: D65's relative power, then x̄, ȳ, z̄ (CIE 015:2018; the same
    /// table as the phone's `xr/bubbles/spectrum.js`).
    private static let table: [Double] = [
        49.9755, 0.001368, 3.9e-05, 0.00645,  // 380
        52.3118, 0.002236, 6.4e-05, 0.01055,  // 385
        54.6482, 0.004243, 0.00012, 0.02005,  // 390
        68.7015, 0.00765, 0.000217, 0.03621,  // 395
        82.7549, 0.01431, 0.000396, 0.06785,  // 400
        87.1204, 0.02319, 0.00064, 0.1102,  // 405
        91.4860, 0.04351, 0.00121, 0.2074,  // 410
        92.4589, 0.07763, 0.00218, 0.3713,  // 415
        93.4318, 0.13438, 0.004, 0.6456,  // 420
        90.0570, 0.21477, 0.0073, 1.03905,  // 425
        86.6823, 0.2839, 0.0116, 1.3856,  // 430
        95.7736, 0.3285, 0.01684, 1.62296,  // 435
        104.8650, 0.34828, 0.023, 1.74706,  // 440
        110.9360, 0.34806, 0.0298, 1.7826,  // 445
        117.0080, 0.3362, 0.038, 1.77211,  // 450
        117.4100, 0.3187, 0.048, 1.7441,  // 455
        117.8120, 0.2908, 0.06, 1.6692,  // 460
        116.3360, 0.2511, 0.0739, 1.5281,  // 465
        114.8610, 0.19536, 0.09098, 1.28764,  // 470
        115.3920, 0.1421, 0.1126, 1.0419,  // 475
        115.9230, 0.09564, 0.13902, 0.81295,  // 480
        112.3670, 0.05795, 0.1693, 0.6162,  // 485
        108.8110, 0.03201, 0.20802, 0.46518,  // 490
        109.0820, 0.0147, 0.2586, 0.3533,  // 495
        109.3540, 0.0049, 0.323, 0.272,  // 500
        108.5780, 0.0024, 0.4073, 0.2123,  // 505
        107.8020, 0.0093, 0.503, 0.1582,  // 510
        106.2960, 0.0291, 0.6082, 0.1117,  // 515
        104.7900, 0.06327, 0.71, 0.07825,  // 520
        106.2390, 0.1096, 0.7932, 0.05725,  // 525
        107.6890, 0.1655, 0.862, 0.04216,  // 530
        106.0470, 0.22575, 0.91485, 0.02984,  // 535
        104.4050, 0.2904, 0.954, 0.0203,  // 540
        104.2250, 0.3597, 0.9803, 0.0134,  // 545
        104.0460, 0.43345, 0.99495, 0.00875,  // 550
        102.0230, 0.51205, 1, 0.00575,  // 555
        100.0000, 0.5945, 0.995, 0.0039,  // 560
        98.1671, 0.6784, 0.9786, 0.00275,  // 565
        96.3342, 0.7621, 0.952, 0.0021,  // 570
        96.0611, 0.8425, 0.9154, 0.0018,  // 575
        95.7880, 0.9163, 0.87, 0.00165,  // 580
        92.2368, 0.9786, 0.8163, 0.0014,  // 585
        88.6856, 1.0263, 0.757, 0.0011,  // 590
        89.3459, 1.0567, 0.6949, 0.001,  // 595
        90.0062, 1.0622, 0.631, 0.0008,  // 600
        89.8026, 1.0456, 0.5668, 0.0006,  // 605
        89.5991, 1.0026, 0.503, 0.00034,  // 610
        88.6489, 0.9384, 0.4412, 0.00024,  // 615
        87.6987, 0.85445, 0.381, 0.00019,  // 620
        85.4936, 0.7514, 0.321, 0.0001,  // 625
        83.2886, 0.6424, 0.265, 5e-05,  // 630
        83.4939, 0.5419, 0.217, 3e-05,  // 635
        83.6992, 0.4479, 0.175, 2e-05,  // 640
        81.8630, 0.3608, 0.1382, 1e-05,  // 645
        80.0268, 0.2835, 0.107, -1.90582e-21,  // 650
        80.1207, 0.2187, 0.0816, 0,  // 655
        80.2146, 0.1649, 0.061, 0,  // 660
        81.2462, 0.1212, 0.04458, 0,  // 665
        82.2778, 0.0874, 0.032, 0,  // 670
        80.2810, 0.0636, 0.0232, 0,  // 675
        78.2842, 0.04677, 0.017, 0,  // 680
        74.0027, 0.0329, 0.01192, 0,  // 685
        69.7213, 0.0227, 0.00821, 0,  // 690
        70.6652, 0.01584, 0.005723, 0,  // 695
        71.6091, 0.0113592, 0.004102, 0,  // 700
        72.9790, 0.00811092, 0.002929, 0,  // 705
        74.3490, 0.00579035, 0.002091, 0,  // 710
        67.9765, 0.00410946, 0.001484, 0,  // 715
        61.6040, 0.00289933, 0.001047, 0,  // 720
        65.7448, 0.00204919, 0.00074, 0,  // 725
        69.8856, 0.00143997, 0.00052, 0,  // 730
        72.4863, 0.000999949, 0.0003611, 0,  // 735
        75.0870, 0.000690079, 0.0002492, 0,  // 740
        69.3398, 0.000476021, 0.0001719, 0,  // 745
        63.5927, 0.000332301, 0.00012, 0,  // 750
        55.0054, 0.000234826, 8.48e-05, 0,  // 755
        46.4182, 0.00016615, 6e-05, 0,  // 760
        56.6118, 0.000117413, 4.24e-05, 0,  // 765
        66.8054, 8.30753e-05, 3e-05, 0,  // 770
        65.0941, 5.87065e-05, 2.12e-05, 0,  // 775
        63.3828, 4.15099e-05, 1.499e-05, 0,  // 780
    ]
}
