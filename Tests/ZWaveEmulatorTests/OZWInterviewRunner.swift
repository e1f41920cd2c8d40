import Foundation
import IntegrationSupport
import LabSupport
import TestSupport
import Testing

/// A small OpenZWave program (C++, built with g++ against the installed libopenzwave 1.6 on first use) that
/// interviews a network until AllNodesQueried (sleeping nodes included, unlike MinOZW, which stops at
/// AwakeNodesQueried) and prints each node's identity and every value:
/// `NODE <id> <manufacturer> | <product> | listening <0|1> frequent <0|1>` and
/// `VALUE <node> <command class> <index> <label> = <value> <units>`, then `DONE`.
struct OZWInterviewRunner {
    let executable: String

    struct Node: Equatable {
        var manufacturer: String
        var product: String
        var listening: Bool
        var frequentListening: Bool
    }

    /// The parsed output of one run.
    struct Result {
        var output: String
        var finished: Bool

        /// The nodes OpenZWave reported, by id.
        var nodes: [UInt8: Node] {
            var nodes: [UInt8: Node] = [:]
            for line in output.split(separator: "\n") where line.hasPrefix("NODE ") {
                let fields = line.dropFirst(5).components(separatedBy: " | ")
                guard fields.count == 3, let space = fields[0].firstIndex(of: " "),
                    let id = UInt8(fields[0][..<space])
                else { continue }
                let flags = fields[2].split(separator: " ")
                nodes[id] = Node(
                    manufacturer: String(fields[0][space...].dropFirst()), product: fields[1],
                    listening: flags.count > 1 && flags[1] == "1", frequentListening: flags.count > 3 && flags[3] == "1"
                )
            }
            return nodes
        }

        /// The value (as OpenZWave shows it, with units) of `node`'s command class `cc`, index `index`.
        func value(node: UInt8, cc: UInt8, index: Int) -> String? {
            let prefix = "VALUE \(node) \(cc) \(index) "
            for line in output.split(separator: "\n") where line.hasPrefix(prefix) {
                guard let range = line.range(of: " = ") else { continue }
                return String(line[range.upperBound...]).trimmingCharacters(in: .whitespaces)
            }
            return nil
        }

        /// The command classes with at least one value on `node`.
        func commandClasses(node: UInt8) -> Set<UInt8> {
            let prefix = "VALUE \(node) "
            return Set(
                output.split(separator: "\n").filter { $0.hasPrefix(prefix) }.compactMap {
                    UInt8($0.dropFirst(prefix.count).split(separator: " ").first ?? "")
                })
        }
    }

    /// Builds the program (once per source version, cached in the temporary directory).
    static func build() async throws -> OZWInterviewRunner {
        try #require(
            FileManager.default.isExecutableFile(atPath: "/usr/bin/g++"), "g++ is missing (apt-get install g++)")
        try #require(
            FileManager.default.fileExists(atPath: "/usr/include/openzwave/Manager.h"),
            "the OpenZWave headers are missing (apt-get install libopenzwave1.6-dev)")
        var hash: UInt64 = 0xCBF2_9CE4_8422_2325
        for byte in source.utf8 { hash = (hash ^ UInt64(byte)) &* 0x100_0000_01B3 }
        let directory = NSTemporaryDirectory() + "ozw-interview-\(String(hash, radix: 16))"
        let executable = directory + "/ozw_interview"
        if FileManager.default.isExecutableFile(atPath: executable) {
            return OZWInterviewRunner(executable: executable)
        }
        try FileManager.default.createDirectory(atPath: directory, withIntermediateDirectories: true)
        let file = directory + "/ozw_interview.cpp"
        try source.write(toFile: file, atomically: true, encoding: .utf8)
        let partial = executable + ".partial"
        let compiler = try ChildProcess(
            executable: "/usr/bin/g++",
            arguments: [
                "-std=c++11", "-O0", "-I/usr/include/openzwave", "-o", partial, file, "-lopenzwave", "-lpthread",
            ])
        let termination = await compiler.waitForExit(timeout: .seconds(300))
        try #require(termination == .exited(0), "g++ failed: \(compiler.outputText.suffix(3000))")
        try FileManager.default.moveItem(atPath: partial, toPath: executable)
        return OZWInterviewRunner(executable: executable)
    }

    /// Interviews the network on `device`, with OpenZWave's cache and log (OZW_Log.txt) in `directory`.
    func run(device: String, in directory: String, timeout: Duration = .seconds(180)) async throws -> Result {
        let child = try ChildProcess(
            executable: executable, arguments: [device, directory + "/"], workingDirectory: directory)
        let end = await child.waitForLine(timeout: timeout) { $0.text == "DONE" || $0.text == "FAILED" }
        if end != nil { _ = await child.waitForExit(timeout: .seconds(20)) }
        if child.isRunning { _ = await child.stop(timeout: .seconds(5)) }
        await child.waitForOutputEnd(timeout: .seconds(5))
        return Result(output: child.outputText, finished: end?.text == "DONE")
    }

    static let source = #"""
        // Interviews a Z-Wave network with the real libopenzwave and prints every node's identity and values once all
        // nodes (sleeping ones too) are queried: "NODE <id> <manufacturer> | <product>", "VALUE <id> <cc> <label> = <value>".
        #include <openzwave/Manager.h>
        #include <openzwave/Notification.h>
        #include <openzwave/Options.h>
        #include <openzwave/value_classes/ValueID.h>
        #include <pthread.h>
        #include <stdio.h>
        #include <unistd.h>
        #include <list>
        #include <set>
        #include <string>
        using namespace OpenZWave;

        static pthread_mutex_t lock = PTHREAD_MUTEX_INITIALIZER;
        static pthread_cond_t done = PTHREAD_COND_INITIALIZER;
        static bool finished = false, failed = false;
        static uint32 homeId = 0;
        static std::list<ValueID> values;
        static std::set<uint8> nodes;

        static void onNotification(Notification const* n, void*) {
            pthread_mutex_lock(&lock);
            switch (n->GetType()) {
            case Notification::Type_DriverReady: homeId = n->GetHomeId(); break;
            case Notification::Type_DriverFailed: failed = true; finished = true; pthread_cond_broadcast(&done); break;
            case Notification::Type_NodeAdded: nodes.insert(n->GetNodeId()); break;
            case Notification::Type_ValueAdded: values.push_back(n->GetValueID()); break;
            case Notification::Type_NodeQueriesComplete: printf("QUERIES_COMPLETE %d\n", n->GetNodeId()); break;
            case Notification::Type_AwakeNodesQueried: printf("AwakeNodesQueried\n"); break;
            case Notification::Type_AllNodesQueried:
            case Notification::Type_AllNodesQueriedSomeDead:
                printf("%s\n", n->GetType() == Notification::Type_AllNodesQueried ? "AllNodesQueried" : "AllNodesQueriedSomeDead");
                finished = true;
                pthread_cond_broadcast(&done);
                break;
            default: break;
            }
            fflush(stdout);
            pthread_mutex_unlock(&lock);
        }

        int main(int argc, char* argv[]) {
            if (argc < 3) { fprintf(stderr, "usage: %s <device> <user dir>\n", argv[0]); return 2; }
            Options::Create("/etc/openzwave/", argv[2], "");
            Options::Get()->AddOptionBool("ConsoleOutput", false);
            Options::Get()->AddOptionBool("Logging", true);
            Options::Get()->AddOptionInt("SaveLogLevel", LogLevel_Detail);
            Options::Get()->Lock();
            Manager::Create();
            Manager::Get()->AddWatcher(onNotification, NULL);
            Manager::Get()->AddDriver(argv[1]);
            pthread_mutex_lock(&lock);
            while (!finished) pthread_cond_wait(&done, &lock);
            if (!failed) {
                for (uint8 id : nodes) {
                    printf("NODE %d %s | %s | listening %d frequent %d\n", id,
                           Manager::Get()->GetNodeManufacturerName(homeId, id).c_str(),
                           Manager::Get()->GetNodeProductName(homeId, id).c_str(),
                           Manager::Get()->IsNodeListeningDevice(homeId, id),
                           Manager::Get()->IsNodeFrequentListeningDevice(homeId, id));
                }
                for (ValueID const& v : values) {
                    std::string s;
                    Manager::Get()->GetValueAsString(v, &s);
                    printf("VALUE %d %d %d %s = %s %s\n", v.GetNodeId(), v.GetCommandClassId(), v.GetIndex(),
                           Manager::Get()->GetValueLabel(v).c_str(), s.c_str(), Manager::Get()->GetValueUnits(v).c_str());
                }
            }
            printf("%s\n", failed ? "FAILED" : "DONE");
            fflush(stdout);
            pthread_mutex_unlock(&lock);
            Manager::Get()->RemoveDriver(argv[1]);
            Manager::Get()->RemoveWatcher(onNotification, NULL);
            Manager::Destroy();
            Options::Destroy();
            return failed ? 1 : 0;
        }
        """#
}
