// motionkiosk-bench: benchmarks that print one JSON line per result.
// Each benchmark lives in its own file and registers itself in `benchmarks`.
#if canImport(Glibc)
import Glibc
#endif

let benchmarks: [String: ([String]) -> Int32] = [
    "raster": runRasterBench,
    "dynamics": dynamicsBenchmark,
    "frame": frameBenchmark,
]

let arguments = Array(CommandLine.arguments.dropFirst())
guard let name = arguments.first, let run = benchmarks[name] else {
    let names = benchmarks.keys.sorted().joined(separator: "|")
    FileHandleStderr.write("usage: motionkiosk-bench <\(names)> [options]\n")
    exit(2)
}
exit(run(Array(arguments.dropFirst())))
