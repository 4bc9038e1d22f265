#if canImport(Glibc)
import Glibc
#endif
import CommandLineParser
import Exhibits
import KioskRuntime

/// `motionkiosk replay`: a trace (or a built-in demo) through the frame loop on a virtual
/// clock; a PNG and the state JSON at each checkpoint. Exit 2 for a bad trace or option.
func replay(_ c: ParsedCommand) throws(KioskError) -> Int32 {
    if c.flag("list-demos") {
        print(([launcherName] + ExhibitRegistry.tiles.map { $0.name }).joined(separator: "\n"))
        return 0
    }
    var job = ReplayJob(say: { print($0) }, complain: { printError($0) })
    job.trace = c.argument("trace")
    job.demo = c.string("demo"); job.size = c.string("size"); job.exhibitName = c.string("exhibit")
    do throws(CommandLineError) { job.out = try c.nonEmpty("out") ?? "."; job.seed = try c.unsigned("seed") } catch {
        printError(error.message)
        return 2
    }
    // A black-box dump folder: its trace, run as its stand's configuration ran it, and its
    // state to compare with.
    if let given = job.trace, isFolder(given) {
        job.dump = given
        job.trace = given + "/trace.jsonl"
    }
    job.configFile = c.string("config") ?? job.dump.map { $0 + "/config.toml" }.flatMap { access($0, R_OK) == 0 ? $0 : nil }
    job.timeZone = c.string("timezone"); job.clock = c.string("clock"); job.startTime = c.string("start-time")
    return try job.run()
}
