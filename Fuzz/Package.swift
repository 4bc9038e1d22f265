// swift-tools-version:6.0
// Coverage-guided fuzzing of the readers of outside input with libFuzzer (the one in the
// Swift toolchain). Not part of the kiosk's build: board/fuzz/libfuzzer.sh builds it with
//   swift build -Xswiftc -sanitize=fuzzer -Xswiftc -use-ld=lld
// (every module instrumented for coverage; each main hands over to libFuzzer's driver) and
// runs each target.
import PackageDescription

let package = Package(
    name: "MotionKioskFuzz",
    dependencies: [.package(name: "MotionKiosk", path: "..")],
    targets: [
        .target(name: "CFuzzerDriver"),
        .executableTarget(name: "fuzz-config", dependencies: ["CFuzzerDriver", .product(name: "MotionKioskReaders", package: "MotionKiosk")]),
        .executableTarget(name: "fuzz-trace", dependencies: ["CFuzzerDriver", .product(name: "MotionKioskReaders", package: "MotionKiosk")]),
        .executableTarget(name: "fuzz-iio", dependencies: ["CFuzzerDriver", .product(name: "MotionKioskReaders", package: "MotionKiosk")]),
    ]
)
