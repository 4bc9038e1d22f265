// swift-tools-version:6.0
import PackageDescription

// Dependency direction (see ../shared/design.md and ARCHITECTURE.md):
//   motionkiosk (argument parsing and wiring) → KioskRuntime (the frame loop) → KioskConfig →
//   Exhibits (ExhibitRegistry: every exhibit, declared once in its own folder) →
//   {Raster, Dynamics, Gestures, Sensors, Platform, Trace} → Geometry.
// The seam to the system: only Syscalls depends on the C library targets (CSystem, CDRM,
// CInput), Raster on CFreeType, CHarfBuzz, CFriBidi and CPNG for text and PNG files,
// KioskConfig on CTOML (toml++) for the configuration file, and Dynamics on CLanes (vector
// shuffles, one header: no library). Platform and Sensors reach the kernel through Syscalls'
// protocols, which the tests replace (SystemFakes).
// Release builds check bounds and overflow everywhere except Raster's inner loops (and the
// bench, which measures them as shipped): there -Ounchecked is measured need — checked,
// circles go from 0.20 to 0.23 of cairo's time and squares from 0.22 to 0.26 (x86_64, same
// run) — and Canvas's public entry points turn away geometry that is not finite or lies
// beyond ±1e300 px before any loop runs. The Embedded ARM builds (board/cross/build.sh) read
// which targets use it from here and build those -Ounchecked too.
let rasterUnchecked: [SwiftSetting] = [.unsafeFlags(["-Ounchecked"], .when(configuration: .release))]

let package = Package(
    name: "MotionKiosk",
    platforms: [.macOS(.v13)],
    products: [
        .executable(name: "motionkiosk", targets: ["motionkiosk"]),
        .executable(name: "motionkiosk-bench", targets: ["motionkiosk-bench"]),
        // The readers of outside input, for the coverage-guided fuzz package in Fuzz/.
        .library(name: "MotionKioskReaders", targets: ["KioskConfig", "Exhibits", "Trace", "Sensors"]),
    ],
    targets: [
        // C libraries, found through pkg-config; apt names them for a fresh machine.
        .systemLibrary(name: "CDRM", path: "Sources/CShims/CDRM", pkgConfig: "libdrm",
                       providers: [.apt(["libdrm-dev"])]),
        .systemLibrary(name: "CInput", path: "Sources/CShims/CInput", pkgConfig: "libinput",
                       providers: [.apt(["libinput-dev", "libudev-dev"])]),
        .systemLibrary(name: "CFreeType", path: "Sources/CShims/CFreeType", pkgConfig: "freetype2",
                       providers: [.apt(["libfreetype-dev"])]),
        // Text: HarfBuzz shapes, fribidi orders right-to-left runs, FreeType draws the glyphs.
        .systemLibrary(name: "CHarfBuzz", path: "Sources/CShims/CHarfBuzz", pkgConfig: "harfbuzz",
                       providers: [.apt(["libharfbuzz-dev"])]),
        .systemLibrary(name: "CFriBidi", path: "Sources/CShims/CFriBidi", pkgConfig: "fribidi",
                       providers: [.apt(["libfribidi-dev"])]),
        .systemLibrary(name: "CPNG", path: "Sources/CShims/CPNG", pkgConfig: "libpng",
                       providers: [.apt(["libpng-dev"])]),
        // Anchors for the benchmark only: never linked into the kiosk.
        .systemLibrary(name: "CCairo", path: "Sources/CShims/CCairo", pkgConfig: "cairo",
                       providers: [.apt(["libcairo2-dev"])]),

        .target(name: "CSystem", path: "Sources/CShims/CSystem"),
        // Four-lane vector shuffles for Dynamics' contact rows (one header; see ContactRows.swift).
        .target(name: "CLanes", path: "Sources/CShims/CLanes"),
        // toml++ (Debian's libtomlplusplus, a compiled TOML 1.0 reader) behind a C face that
        // regular and Embedded Swift can both call.
        .target(name: "CTOML", path: "Sources/CShims/CTOML",
                cxxSettings: [.define("TOML_HEADER_ONLY", to: "0"), .define("TOML_SHARED_LIB", to: "1")],
                linkerSettings: [.linkedLibrary("tomlplusplus"), .linkedLibrary("stdc++")]),
        // Box2D 2.4 running the kiosk500 scene: the Dynamics benchmark's anchor only.
        .target(name: "CBox2DScene", path: "Sources/CShims/CBox2DScene",
                linkerSettings: [.linkedLibrary("box2d"), .linkedLibrary("stdc++")]),
        // The bench's frame boundary for per-frame instruction counts under QEMU
        // (board/cross/frame-counts.c): the benchmark only.
        .target(name: "CFrameMarker", path: "Sources/CShims/CFrameMarker"),

        .target(name: "Geometry"),
        // Every string a visitor reads, per language: the Exhibits draw it, the config rewords it.
        .target(name: "VisitorText"),
        // When a stand is open: weekly hours and closed dates on the local wall clock.
        .target(name: "OpeningHours"),
        .target(name: "Diagnostics", dependencies: ["Geometry"]),
        .target(name: "Syscalls", dependencies: ["CSystem", "CDRM", "CInput"]),
        .target(name: "Raster", dependencies: ["Geometry", "Syscalls", "CFreeType", "CHarfBuzz", "CFriBidi", "CPNG"], swiftSettings: rasterUnchecked),
        .target(name: "Dynamics", dependencies: ["Geometry", "CLanes"]),
        .target(name: "Gestures", dependencies: ["Geometry"]),
        .target(name: "Trace", dependencies: ["Geometry"]),
        .target(name: "Sensors", dependencies: ["Geometry", "Syscalls", "Diagnostics"]),
        .target(name: "Platform", dependencies: ["Geometry", "Raster", "Syscalls", "Diagnostics", "Trace"]),

        .target(name: "Exhibits",
                dependencies: ["Geometry", "Raster", "Dynamics", "Gestures", "Trace", "Sensors", "Platform", "Diagnostics", "VisitorText"]),
        // Above Exhibits: the schema's exhibit names, per-exhibit tables and text keys come
        // from ExhibitRegistry.
        .target(name: "KioskConfig", dependencies: ["Exhibits", "Sensors", "Syscalls", "Diagnostics", "CTOML", "VisitorText", "OpeningHours"]),

        // The command line as data: options, help, errors naming the option (Embedded-safe).
        .target(name: "CommandLineParser", dependencies: ["Diagnostics"]),
        // The frame loop that `run`, `pattern`, `replay` and the tests all drive.
        .target(name: "KioskRuntime",
                dependencies: ["Geometry", "Raster", "Gestures", "Trace", "Sensors", "Platform", "Syscalls", "Diagnostics", "Exhibits", "KioskConfig", "VisitorText", "OpeningHours"]),

        .executableTarget(name: "motionkiosk",
                          dependencies: ["OpeningHours", "Geometry", "Raster", "Dynamics", "Gestures", "Trace", "Sensors", "Platform", "KioskConfig", "Diagnostics", "Exhibits", "KioskRuntime", "CommandLineParser"]),
        .executableTarget(name: "motionkiosk-fuzz",
                          dependencies: ["Geometry", "Raster", "Exhibits", "KioskRuntime", "KioskConfig", "Platform", "Sensors", "Trace", "Diagnostics"]),
        .executableTarget(name: "motionkiosk-bench",
                          dependencies: ["Geometry", "Raster", "Dynamics", "CCairo", "CBox2DScene", "CFrameMarker", "Exhibits", "KioskRuntime", "Platform", "Gestures", "Diagnostics", "VisitorText", "CommandLineParser"],
                          swiftSettings: rasterUnchecked),

        .testTarget(name: "KioskConfigTests", dependencies: ["KioskConfig", "Exhibits", "Sensors", "VisitorText", "OpeningHours"]),
        .testTarget(name: "ExhibitsTests", dependencies: ["Exhibits", "VisitorText", "KioskRuntime", "Geometry", "Raster", "Platform", "Trace", "Sensors", "Diagnostics", "Gestures"]),
        .testTarget(name: "KioskRuntimeTests", dependencies: ["KioskRuntime", "OpeningHours", "KioskConfig", "SystemFakes", "Exhibits", "Platform", "Syscalls", "Sensors", "Trace", "Gestures", "Geometry", "Raster", "Diagnostics"]),
        .testTarget(name: "DiagnosticsTests", dependencies: ["Diagnostics", "Geometry"]),
        .testTarget(name: "SyscallsTests", dependencies: ["Syscalls", "SystemFakes"]),
        .testTarget(name: "GeometryTests", dependencies: ["Geometry"]),
        .testTarget(name: "OpeningHoursTests", dependencies: ["OpeningHours"]),
        .testTarget(name: "CommandLineParserTests", dependencies: ["CommandLineParser"]),
        .testTarget(name: "RasterTests", dependencies: ["Raster", "Geometry", "CCairo", "Syscalls", "SystemFakes"]),
        .testTarget(name: "DynamicsTests", dependencies: ["Dynamics", "Geometry"]),
        .testTarget(name: "GesturesTests", dependencies: ["Gestures", "Trace", "Geometry"]),
        .testTarget(name: "TraceTests", dependencies: ["Trace", "Geometry"]),
        .testTarget(name: "SensorsTests", dependencies: ["Sensors", "Syscalls", "Geometry", "Diagnostics", "SystemFakes"]),
        // Fakes below the platform seam (device nodes, DRM, udev), shared by the test targets.
        .target(name: "SystemFakes", dependencies: ["Platform", "Syscalls", "Geometry"], path: "Tests/SystemFakes"),
        .testTarget(name: "PlatformTests", dependencies: ["Platform", "Raster", "Syscalls", "Geometry", "Trace", "SystemFakes"]),
    ],
    cxxLanguageStandard: .cxx17
)
