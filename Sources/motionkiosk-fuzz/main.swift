// motionkiosk-fuzz: feeds the readers of outside data mutated inputs from a seeded
// generator, for a bounded time each, and replays random visitors on every exhibit. A trap
// or a hang is the failure (the process dies, or CI's time runs out); refusals are the
// expected outcome. Prints one JSON line per target.
//
//   motionkiosk-fuzz [config|trace|iio|visitors|fonts|environment|all] [--seconds S] [--seed N]
//
// `fonts` names font files the way a config can (FIFOs, devices, folders, empty, cut and
// corrupted fonts) and draws the launcher with what loads; `environment` sets TZ, TZDIR and
// LANG as a unit file or a shell could and reads the wall clock as the kiosk does. Each of
// their inputs runs under a 10 s alarm: a hang dies as a trap would.
//
// Before each input it is written to `motionkiosk-fuzz.input` in the current folder, so
// the one that killed the process can be read back and turned into a test.
#if canImport(Glibc)
import Glibc
#endif
import Diagnostics
import Exhibits
import Geometry
import KioskConfig
import KioskRuntime
import Platform
import Raster
import Sensors
import Syscalls
import Trace

var arguments = Array(CommandLine.arguments.dropFirst())
var seconds = 20.0
var seed: UInt64 = 1
var targets: [String] = []
while !arguments.isEmpty {
    let a = arguments.removeFirst()
    switch a {
    case "--seconds":
        guard let v = arguments.first.flatMap({ Double($0) }), v > 0, v <= 3600 else { fatalError("--seconds needs 0…3600") }
        seconds = v; arguments.removeFirst()
    case "--seed":
        guard let v = arguments.first.flatMap({ UInt64($0) }) else { fatalError("--seed needs a whole number") }
        seed = v; arguments.removeFirst()
    case "config", "trace", "iio", "visitors", "fonts", "environment": targets.append(a)
    case "all": targets += ["config", "trace", "iio", "visitors", "fonts", "environment"]
    default: fatalError("unknown argument \(a)")
    }
}
if targets.isEmpty { targets = ["config", "trace", "iio", "visitors", "fonts", "environment"] }

/// Where the input under test is kept, for a post-mortem.
let inputFile = fopen("motionkiosk-fuzz.input", "w")
@MainActor func keep(_ text: String) {
    guard let f = inputFile else { return }
    rewind(f)
    ftruncate(fileno(f), 0)
    fputs(text, f)
    fflush(f)
}

func monotonicSeconds() -> Double {
    var t = timespec()
    clock_gettime(CLOCK_MONOTONIC, &t)
    return Double(t.tv_sec) + Double(t.tv_nsec) / 1e9
}

/// Pieces an attacker (or a corrupted file) would try: numbers at and beyond every limit,
/// structure characters, escapes.
let interesting = ["1e300", "-1e300", "inf", "-inf", "nan", "9223372036854775807", "-9223372036854775808",
                   "9223372036854775808", "--9", "0x-8000000000000000", "1e-300", "-0", "0", "4294967296", "65536",
                   "[", "]", "[[", "{", "}", "\"", "'", "\\", "\\u0000", "\\uD800", ",", "=", "\n", "#", ".", "X", ">>",
                   "le:s", "be:u", "/", "99999999999999999999999", "1e15", "9.3e18", "-1", "\u{FEFF}", "\r\n", "\t", "é"]

/// One mutation of `text`: a byte changed, a piece inserted, a range deleted or doubled,
/// the end cut off.
func mutate(_ text: String, _ random: inout SeededGenerator) -> String {
    var bytes = Array(text.utf8)
    let rounds = 1 + Int(random.next() % 4)
    for _ in 0..<rounds {
        let at = bytes.isEmpty ? 0 : Int(random.next() % UInt64(bytes.count + 1))
        switch random.next() % 6 {
        case 0 where !bytes.isEmpty && at < bytes.count:
            bytes[at] = UInt8(truncatingIfNeeded: random.next())
        case 1, 2:
            bytes.insert(contentsOf: Array(interesting[Int(random.next() % UInt64(interesting.count))].utf8), at: at)
        case 3 where !bytes.isEmpty:
            let end = min(bytes.count, at + 1 + Int(random.next() % 16))
            if at < end { bytes.removeSubrange(at..<end) }
        case 4 where !bytes.isEmpty:
            let end = min(bytes.count, at + 1 + Int(random.next() % 64))
            if at < end { bytes.insert(contentsOf: Array(bytes[at..<end]), at: at) }
        default:
            if at < bytes.count { bytes.removeSubrange(at...) }
        }
    }
    return String(decoding: bytes, as: UTF8.self)
}

/// Runs `body` on mutated seeds until the time is up; prints the target's JSON line.
@MainActor func fuzz(_ name: String, seeds: [String], _ body: (String) -> Bool) {
    var random = SeededGenerator(seed: seed)
    let end = monotonicSeconds() + seconds
    var runs = 0, accepted = 0
    while monotonicSeconds() < end {
        var text = seeds[Int(random.next() % UInt64(seeds.count))]
        // Mutations pile up: some inputs are far from any seed.
        for _ in 0..<(1 + Int(random.next() % 3)) { text = mutate(text, &random) }
        keep(text)
        if body(text) { accepted += 1 }
        runs += 1
    }
    print("{\"fuzz\":\"\(name)\",\"seed\":\(seed),\"seconds\":\(seconds),\"runs\":\(runs),\"accepted\":\(accepted),\"refused\":\(runs - accepted)}")
}

let demoTraces = ExhibitRegistry.tiles.map { $0.profile.demoTrace }
/// What a replay can run: the launcher (nil) and every exhibit.
let replayTargets: [ExhibitType?] = [nil] + ExhibitRegistry.all.map { $0 }
/// A config that reorders the launcher and sets every exhibit option, from the registry.
let exhibitsConfigSeed = "[exhibits]\norder = [" + ExhibitRegistry.tiles.reversed().prefix(2).map { "\"\($0.name)\"" }.joined(separator: ", ")
    + "]\nidle_seconds = 45\n" + ExhibitRegistry.all.filter { !$0.profile.options.isEmpty }.map { exhibit in
        "[exhibits.\(exhibit.name)]\n" + exhibit.profile.options.map { "\($0.name) = \($0.defaultText)\n" }.joined()
    }.joined()
let fonts: FontSet
do { fonts = try FontSet() } catch { fatalError("fonts: \(error)") }
let quiet = Log(minimum: .error, sink: { _, _ in })

/// Replays `records` on `exhibit` at a random size; false when the replay could not start.
@MainActor func replay(_ records: [TraceRecord], exhibit: ExhibitType?, width: Int, height: Int, seed: UInt64, fonts: FontSet = fonts) -> Bool {
    let settings = KioskApp.Settings.replay(exhibit: exhibit, width: width, height: height, seed: seed)
    guard let runner = try? ReplayRunner(settings: settings, display: VirtualPanel(width: width, height: height),
                                         fonts: fonts, log: quiet) else { return false }
    runner.run(records) { checkpoint in _ = checkpoint.state }
    return true
}

for target in targets {
    switch target {
    case "config":
        let seeds = [KioskConfiguration.defaultFileText,
                     "[display]\nrotation = 90\nmode = \"800x480@60\"\n[sensors]\nsource = \"i2c\"\ni2c_bus = 1\ni2c_address = 0x18\nmount = [[0, 1, 0], [-1, 0, 0], [0, 0, 1]]\n",
                     exhibitsConfigSeed]
        fuzz("config", seeds: seeds) { text in (try? KioskConfiguration.parse(text, file: "fuzz.toml")) != nil }
    case "trace":
        // A mutated trace that still reads is replayed too, on a short leash of virtual time.
        var random = SeededGenerator(seed: seed ^ 0x5EED)
        fuzz("trace", seeds: demoTraces) { text in
            guard let read = try? TraceReader.trace(in: text, source: "fuzz", warn: { _ in }) else { return false }
            let records = read.records.filter { $0.t <= 60_000 }
            var exhibit = replayTargets[Int(random.next() % UInt64(replayTargets.count))]
            if let named = read.header.exhibit {
                // A header naming no exhibit is refused, as `motionkiosk replay` refuses it.
                if named == "launcher" { exhibit = nil } else if let type = ExhibitRegistry.named(named) { exhibit = type } else { return false }
            }
            return replay(records, exhibit: exhibit, width: read.header.width ?? 480,
                          height: read.header.height ?? 800, seed: random.next())
        }
    case "iio":
        let seeds = ["le:s12/16>>4", "be:u10/16>>6", "le:s16/32X3>>0", "le:s64/64>>0", "1 10 25 50 100 200 400",
                     "[3 10 200]", "0.5 1.5 12.5"]
        fuzz("iio", seeds: seeds) { text in
            let scan = IIOScanType(text)
            if let scan { _ = scan.totalBytes; _ = scan.description }
            let menu = FrequencyChoices(text)
            if let menu { _ = menu.choose(atLeast: 100); _ = menu.choose(atLeast: 1e300) }
            return scan != nil || menu != nil
        }
    case "visitors":
        // Random fingers (up to five, anywhere a touch can be recorded) and tilts on every
        // exhibit, as traces, through the same replay as the stand's recordings.
        var random = SeededGenerator(seed: seed ^ 0xF1A6)
        let end = monotonicSeconds() + seconds
        var runs = 0
        while monotonicSeconds() < end {
            var records: [TraceRecord] = []
            var t = 0.0
            var down = Set<Int>()
            let scale = random.unit() < 0.1 ? 1e6 : 600.0
            for _ in 0..<(20 + Int(random.next() % 200)) {
                t += random.unit() * 120
                let id = Int(random.next() % 5)
                let p = Vec2((random.unit() - 0.1) * scale, (random.unit() - 0.1) * scale * 1.6)
                let phase: TouchPhase = down.contains(id) ? (random.unit() < 0.3 ? .up : (random.unit() < 0.05 ? .cancel : .move)) : .down
                if phase == .down { down.insert(id) } else if phase == .up || phase == .cancel { down.remove(id) }
                records.append(TraceRecord(t: t, .touch(phase: phase, id: id, x: p.x, y: p.y)))
                if random.unit() < 0.2 {
                    let g = random.unit() < 0.05 ? 1e300 : 20.0
                    records.append(TraceRecord(t: t, .accel(x: (random.unit() - 0.5) * g, y: (random.unit() - 0.5) * g, z: (random.unit() - 0.5) * g)))
                }
            }
            records.append(TraceRecord(t: t + 2000, .checkpoint(name: "end")))
            let exhibit = replayTargets[Int(random.next() % UInt64(replayTargets.count))]
            let sizes = [(480, 800), (720, 1280), (600, 600), (768, 1024), (64, 64)]
            let (w, h) = sizes[Int(random.next() % UInt64(sizes.count))]
            keep("\(exhibit?.name ?? "launcher") \(w)x\(h)\n" + ((try? TraceWriter.text(for: records)) ?? ""))
            _ = replay(records, exhibit: exhibit, width: w, height: h, seed: random.next())
            runs += 1
        }
        print("{\"fuzz\":\"visitors\",\"seed\":\(seed),\"seconds\":\(seconds),\"runs\":\(runs)}")
    case "fonts":
        // Paths as a [text] fonts list may name them: special files, and font files cut short
        // or with bytes changed, rewritten for each input.
        let folder = "/tmp/motionkiosk-fuzz-fonts-\(getpid())"
        mkdir(folder, 0o755)
        mkfifo(folder + "/fifo.ttf", 0o644)
        mkdir(folder + "/folder.ttf", 0o755)
        symlink("/dev/zero", folder + "/zero.ttf")
        symlink(folder + "/loop.ttf", folder + "/loop.ttf")
        close(open(folder + "/empty.ttf", O_WRONLY | O_CREAT | O_TRUNC, 0o644))
        let original = readBytes(Font.dejaVuSansPath) ?? []
        let candidates = [Font.dejaVuSansPath, folder + "/fifo.ttf", folder + "/folder.ttf", folder + "/zero.ttf", folder + "/loop.ttf",
                          folder + "/empty.ttf", folder + "/cut.ttf", folder + "/changed.ttf", folder + "/missing.ttf", "/dev/null", "/"]
        var random = SeededGenerator(seed: seed ^ 0xF0E7)
        let end = monotonicSeconds() + seconds
        var runs = 0, accepted = 0
        while monotonicSeconds() < end {
            if !original.isEmpty {
                writeBytes(folder + "/cut.ttf", Array(original.prefix(Int(random.next() % UInt64(original.count)))))
                var changed = original
                for _ in 0..<(1 + Int(random.next() % 64)) {
                    changed[Int(random.next() % UInt64(changed.count))] = UInt8(truncatingIfNeeded: random.next())
                }
                writeBytes(folder + "/changed.ttf", changed)
            }
            let paths = (0..<(1 + Int(random.next() % 3))).map { _ in candidates[Int(random.next() % UInt64(candidates.count))] }
            let list = "[text]\nfonts = [" + paths.map { "\"\($0)\"" }.joined(separator: ", ") + "]\n"
            keep(list)
            alarm(10)
            // The config check refuses what is not a file; a font that changes after it is
            // still refused (or drawn) by the loader without waiting.
            _ = try? KioskConfiguration.parse(list, file: "fuzz.toml")
            if let set = try? FontSet(regularPaths: paths, boldPaths: paths.reversed()) {
                _ = set.block("Tilt the box: مرحبا שלום 日本語 é", in: Rect(x: 0, y: 0, width: 200, height: 120), size: 24, minimumSize: 10)
                _ = replay([TraceRecord(t: 100, .checkpoint(name: "end"))], exhibit: nil, width: 480, height: 800, seed: 1, fonts: set)
                accepted += 1
            }
            alarm(0)
            runs += 1
        }
        for name in ["fifo.ttf", "zero.ttf", "loop.ttf", "empty.ttf", "cut.ttf", "changed.ttf"] { unlink(folder + "/" + name) }
        rmdir(folder + "/folder.ttf")
        rmdir(folder)
        print("{\"fuzz\":\"fonts\",\"seed\":\(seed),\"seconds\":\(seconds),\"runs\":\(runs),\"accepted\":\(accepted),\"refused\":\(runs - accepted)}")
    case "environment":
        // TZ as a unit file or a shell could set it (zone names, POSIX rules, files, FIFOs),
        // TZDIR pointing at a folder of traps, LANG; then the wall clock as the kiosk reads it.
        // The kiosk never calls setlocale, so LANG reaches nothing today: it is set anyway,
        // so that a future setlocale meets it here first.
        let folder = "/tmp/motionkiosk-fuzz-zones-\(getpid())"
        mkdir(folder, 0o755)
        mkfifo(folder + "/fifo", 0o644)
        mkfifo(folder + "/UTC0", 0o644)
        mkdir(folder + "/Europe", 0o755)
        symlink("/dev/zero", folder + "/Europe/Berlin")
        let zones = ["Europe/Berlin", ":Europe/Berlin", "Australia/Lord_Howe", "CET-1CEST,M3.5.0,M10.5.0/3", "<+1030>-10:30<+11>-11,M10.1.0,M4.1.0",
                     ":\(folder)/fifo", "\(folder)/fifo", "fifo", ":/dev/zero", "/dev/stdin", ":", "", "UTC0", "../../../dev/zero",
                     ":/usr/share/zoneinfo/Europe/Berlin", "EST5EDT,M3.2.0/2,M11.1.0/2", "XXX-99:99:99"]
        let languages = ["C", "C.UTF-8", "en_US.UTF-8", "ar_EG.UTF-8", "ja_JP.eucJP", "de_DE@euro", "../../etc/passwd", ""]
        var random = SeededGenerator(seed: seed ^ 0x7E57)
        let end = monotonicSeconds() + seconds
        var runs = 0, refused = 0
        while monotonicSeconds() < end {
            var tz: String? = zones[Int(random.next() % UInt64(zones.count))]
            if random.next() % 3 == 0 { tz = mutate(tz ?? "", &random) }
            if random.next() % 10 == 0 { tz = nil }
            let tzdir: String? = random.next() % 3 == 0 ? folder : nil
            let lang = random.next() % 4 == 0 ? mutate(languages[Int(random.next() % UInt64(languages.count))], &random)
                : languages[Int(random.next() % UInt64(languages.count))]
            keep("TZ=\(tz ?? "(unset)")\nTZDIR=\(tzdir ?? "(unset)")\nLANG=\(lang)\n")
            alarm(10)
            if let tz { setenv("TZ", tz, 1) } else { unsetenv("TZ") }
            if let tzdir { setenv("TZDIR", tzdir, 1) } else { unsetenv("TZDIR") }
            setenv("LANG", lang, 1)
            setenv("LC_ALL", lang, 1)
            if ZoneFileGuard.makeSafe() != nil { refused += 1 }
            // As at the kiosk's start: the C library reads the zone anew (localtime_r alone
            // would keep the first one it read).
            tzset()
            let read = StandSchedule.systemLocalTime(monotonicNow: { 0 })
            for t: Microseconds in [0, 3_600_000_000, -86_400_000_000, 1_000_000_000_000_000, -1_000_000_000_000_000] { _ = read(t) }
            for s: Int64 in [0, 1_774_746_000, 1_792_890_000, Int64(Int32.max) * 8, -Int64(Int32.max) * 8] { _ = WallClock.local(s) }
            alarm(0)
            runs += 1
        }
        for name in ["fifo", "UTC0", "Europe/Berlin"] { unlink(folder + "/" + name) }
        rmdir(folder + "/Europe")
        rmdir(folder)
        print("{\"fuzz\":\"environment\",\"seed\":\(seed),\"seconds\":\(seconds),\"runs\":\(runs),\"refused\":\(refused)}")
    default:
        break
    }
}

/// A whole file's bytes (a font to corrupt); nil when it cannot be read.
func readBytes(_ path: String) -> [UInt8]? {
    let fd = open(path, O_RDONLY)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var bytes: [UInt8] = []
    var chunk = [UInt8](repeating: 0, count: 65_536)
    while true {
        let n = chunk.withUnsafeMutableBytes { read(fd, $0.baseAddress, $0.count) }
        if n <= 0 { return n == 0 ? bytes : nil }
        bytes += chunk[0..<n]
    }
}

func writeBytes(_ path: String, _ bytes: [UInt8]) {
    let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
    guard fd >= 0 else { return }
    defer { close(fd) }
    _ = bytes.withUnsafeBytes { write(fd, $0.baseAddress, $0.count) }
}
