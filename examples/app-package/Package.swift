// swift-tools-version: 6.0
// An app's own package that embeds CoachLab, as an iOS or macOS app would: the coach's pack
// ships inside the app as a bundle resource and is compiled on the device, with the user's own
// data, by the same core library its suites are tested with. It depends on CoachLab by path;
// an app outside this repository names the repository's URL instead.
import PackageDescription

let package = Package(
    name: "SprigApp",
    platforms: [.macOS(.v13), .iOS(.v16)],
    products: [.library(name: "SprigCoach", targets: ["SprigCoach"])],
    dependencies: [.package(name: "CoachLab", path: "../..")],
    targets: [
        // The pack is copied whole, so its folder layout (pack.yaml and its includes) survives.
        .target(name: "SprigCoach", dependencies: [.product(name: "CoachLab", package: "CoachLab")],
                resources: [.copy("Pack")]),
        .testTarget(name: "SprigCoachTests", dependencies: ["SprigCoach"]),
    ],
    swiftLanguageModes: [.v6]
)
