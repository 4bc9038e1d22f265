#if canImport(Glibc)
import Glibc
#endif

/// The built `motionkiosk` executable, started as its own process: for what only a whole
/// process shows (signals while it starts, its exit status, what it writes to stdout).
struct SpawnedKiosk {
    /// The executable beside the test bundle (`swift build --build-tests` builds both).
    static var executable: String {
        var buffer = [CChar](repeating: 0, count: 4096)
        let n = readlink("/proc/self/exe", &buffer, buffer.count - 1)
        let own = n > 0 ? String(decoding: buffer[0..<n].map { UInt8(bitPattern: $0) }, as: UTF8.self) : ""
        let folder = own.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
        return folder + "/motionkiosk"
    }

    let pid: pid_t

    /// Starts the kiosk with `arguments` (raw bytes each, so a test can pass what is not
    /// UTF-8) and `environment` added to this process's; stdout and stderr go to the files
    /// given (or /dev/null).
    init?(_ arguments: [[UInt8]], environment: [String] = [], stdout: String = "/dev/null", stderr: String = "/dev/null") {
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, stdout, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        posix_spawn_file_actions_addopen(&actions, 2, stderr, O_WRONLY | O_CREAT | O_TRUNC, 0o644)
        func cString(_ bytes: [UInt8]) -> UnsafeMutablePointer<CChar>? {
            let p = UnsafeMutablePointer<CChar>.allocate(capacity: bytes.count + 1)
            for (i, b) in bytes.enumerated() { p[i] = CChar(bitPattern: b) }
            p[bytes.count] = 0
            return p
        }
        let argv = ([Array(SpawnedKiosk.executable.utf8)] + arguments).map(cString) + [nil]
        var env: [UnsafeMutablePointer<CChar>?] = environment.map { strdup($0) }
        var e = environ
        while let entry = e.pointee {
            let text = String(cString: entry)
            // The test's own service variables would make the kiosk think it is one.
            if !text.hasPrefix("NOTIFY_SOCKET=") && !text.hasPrefix("RUNTIME_DIRECTORY=") && !text.hasPrefix("JOURNAL_STREAM=") {
                env.append(strdup(entry))
            }
            e = e + 1
        }
        env.append(nil)
        defer { for a in argv { a?.deallocate() }; for v in env { free(v) } }
        var pid = pid_t()
        // The child starts with no signal blocked, as systemd starts a service.
        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var none = sigset_t()
        sigemptyset(&none)
        posix_spawnattr_setsigmask(&attributes, &none)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETSIGMASK))
        guard posix_spawn(&pid, SpawnedKiosk.executable, &actions, &attributes, argv, env) == 0 else { return nil }
        self.pid = pid
    }

    init?(_ arguments: [String], environment: [String] = [], stdout: String = "/dev/null", stderr: String = "/dev/null") {
        self.init(arguments.map { Array($0.utf8) }, environment: environment, stdout: stdout, stderr: stderr)
    }

    enum End: Equatable { case exited(Int32), killed(by: Int32) }

    /// Waits for the process to end, at most `seconds` (then kills it: nil), calling `meanwhile`
    /// every millisecond or so.
    func wait(seconds: Double = 60, meanwhile: () -> Void = {}) -> End? {
        var status: Int32 = 0
        var waited = 0.0
        while true {
            let r = waitpid(pid, &status, WNOHANG)
            if r == pid { break }
            if r < 0 && errno != EINTR { return nil }
            if waited > seconds {
                kill(pid, SIGKILL)
                while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
                return nil
            }
            meanwhile()
            usleep(1000)
            waited += 0.001
        }
        return status & 0x7F == 0 ? .exited((status >> 8) & 0xFF) : .killed(by: status & 0x7F)
    }
}
