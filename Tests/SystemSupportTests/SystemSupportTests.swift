import Foundation
import Glibc
import TestSupport
import Testing

@testable import SystemSupport

@Suite struct PathTests {
    @Test(arguments: [
        ("/tmp", "a", "/tmp/a"), ("/tmp/", "a", "/tmp/a"), ("/tmp", "/a", "/tmp/a"), ("/", "a", "/a"),
        ("rel", "a/b.xml", "rel/a/b.xml"), ("", "a", "a"), ("/tmp", "", "/tmp"),
    ])
    func join(directory: String, component: String, expected: String) {
        #expect(Path.join(directory, component) == expected)
    }

    @Test(arguments: [
        ("fibaro/fgd212.xml", "fibaro"), ("/a/b/c", "/a/b"), ("/a/b/", "/a"), ("c", ""), ("/c", "/"), ("/", "/"),
    ])
    func parent(path: String, expected: String) {
        #expect(Path.parent(path) == expected)
    }
}

@Suite struct TimestampTests {
    @Test func utcIsISO8601WithZ() {
        #expect(Timestamp.iso8601(secondsSince1970: 0) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.iso8601(secondsSince1970: 1_795_322_282.9) == "2026-11-22T04:38:02Z")
    }

    @Test func aTimeTheCLibraryCannotHoldIsTheEpochNotACrash() {
        #expect(Timestamp.iso8601(secondsSince1970: 1e300) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.iso8601(secondsSince1970: -1e19) == "1970-01-01T00:00:00Z")
        #expect(Timestamp.iso8601(secondsSince1970: .nan) == "1970-01-01T00:00:00Z")
    }

    @Test func offsetsAreWrittenAsHoursAndMinutes() {
        var seconds = time_t(1_795_322_282)
        var parts = tm()
        _ = gmtime_r(&seconds, &parts)
        #expect(Timestamp.format(parts, offsetSeconds: 3600) == "2026-11-22T04:38:02+01:00")
        #expect(Timestamp.format(parts, offsetSeconds: -5400) == "2026-11-22T04:38:02-01:30")
        #expect(Timestamp.format(parts, offsetSeconds: 0) == "2026-11-22T04:38:02Z")
    }

    @Test func localTimeNamesTheSameInstant() throws {
        // Whatever this machine's zone: the local form, read back with its offset, is the same second.
        for seconds in stride(from: 0.0, through: 2_000_000_000, by: 86_400 * 37.3) {
            let text = Timestamp.iso8601(secondsSince1970: seconds, localTime: true)
            let parsed = try Date(text, strategy: .iso8601)
            #expect(parsed.timeIntervalSince1970 == seconds.rounded(.down), "\(text)")
        }
    }
}

@Suite struct ThreadTests {
    @Test func aStartedThreadRunsWithItsName() async {
        let name = await withCheckedContinuation { (continuation: CheckedContinuation<String, Never>) in
            let started = startThread(name: "support-test-thread-name") {
                let comm = (try? String(contentsOfFile: "/proc/thread-self/comm", encoding: .utf8)) ?? ""
                continuation.resume(returning: comm.trimmingWhitespace())
            }
            #expect(started)
        }
        #expect(name == "support-test-th")  // the kernel keeps 15 bytes
    }

    @Test func conditionMutexWaitTimesOutWithoutASignal() {
        let mutex = ConditionMutex(false)
        let before = ContinuousClock.now
        let result = mutex.wait(timeout: 0.05) { $0 ? true : nil }
        #expect(result == nil)
        #expect(ContinuousClock.now - before >= .milliseconds(45))
    }

    @Test func conditionMutexWakesAWaiterThatAnotherThreadSignals() {
        let mutex = ConditionMutex(0)
        startThread(name: "signaller") {
            mutex.withLock { $0 = 42 }
            mutex.broadcast()
        }
        let seen = mutex.wait(timeout: 10) { $0 != 0 ? $0 : nil }
        #expect(seen == 42)
    }

    @Test func conditionMutexWaitReturnsAtOnceWhenTheStateSaysSo() async throws {
        let mutex = ConditionMutex(7)
        // No timeout, and nothing ever signals: a wait that does not look at the state first never returns.
        let seen = try await finishing(within: .seconds(60)) {
            await onThread { mutex.wait { $0 == 7 ? "ready" : nil } }
        }
        #expect(seen == "ready")
    }

    @Test func conditionMutexSerialisesThreads() async {
        let mutex = ConditionMutex(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<10_000 { mutex.withLock { $0 += 1 } } }
            }
        }
        #expect(mutex.withLock { $0 } == 80_000)
    }
}

@Suite struct FileTests {
    @Test func writeAllWritesEverythingAndReadTextFileReadsIt() throws {
        let path = NSTemporaryDirectory() + "/support-\(getpid())-\(UUID().uuidString)"
        defer { unlink(path) }
        let fd = open(path, O_WRONLY | O_CREAT | O_TRUNC, 0o600)
        #expect(fd >= 0)
        let text = String(repeating: "regel één\n", count: 20_000)
        #expect(writeAll(text, to: fd))
        close(fd)
        #expect(try readTextFile(path) == text)
    }

    @Test func readTextFileSaysWhyItCannot() throws {
        let directory = NSTemporaryDirectory() + "/support-dir-\(getpid())-\(UUID().uuidString)"
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: directory) }
        #expect(throws: TextFileError.noSuchFile) { try readTextFile(directory + "/missing") }
        #expect(throws: TextFileError.isDirectory) { try readTextFile(directory) }
        let binary = directory + "/binary"
        #expect(FileManager.default.createFile(atPath: binary, contents: Data([0xFF, 0xFE, 0x00, 0xC3])))
        #expect(throws: TextFileError.notUTF8) { try readTextFile(binary) }
        #expect(TextFileError.notUTF8.description == "it is not UTF-8 text")
    }

    @Test func writeAllReportsAClosedDescriptor() {
        #expect(!writeAll("x", to: -1))
    }
}

@Suite struct TextTests {
    @Test func trimming() {
        #expect(" \t level 40 \n".trimmingWhitespace() == "level 40")
        #expect("\u{00A0}on\u{2003}".trimmingWhitespace() == "on")
        #expect("  ".trimmingWhitespace() == "")
    }

    @Test func padding() {
        #expect("ab".padded(toWidth: 4) == "ab  ")
        #expect("abcdef".padded(toWidth: 4) == "abcdef")
    }
}
