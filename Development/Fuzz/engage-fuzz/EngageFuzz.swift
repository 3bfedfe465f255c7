import EngageFuzzTargets
import Foundation

// `engage-fuzz`: one parser of `FuzzTarget`, named by ENGAGE_FUZZ_TARGET.
//
// Built with `-sanitize=fuzzer,address -DENGAGE_LIBFUZZER` (Development/Fuzz/README.md) it is a libFuzzer binary:
// libFuzzer's own `main` calls `LLVMFuzzerTestOneInput` with each input it makes. Built plainly (the
// package's ordinary builds) it replays the files and folders on its command line through the target,
// so that a crash a fuzzer found can be run under a debugger.

#if ENGAGE_LIBFUZZER
    private let selected: FuzzTarget = {
        guard let name = ProcessInfo.processInfo.environment["ENGAGE_FUZZ_TARGET"], let target = FuzzTarget(rawValue: name) else {
            FileHandle.standardError.write(
                Data("Set ENGAGE_FUZZ_TARGET to one of: \(FuzzTarget.allCases.map(\.rawValue).joined(separator: ", "))\n".utf8))
            exit(2)
        }
        return target
    }()

    @_cdecl("LLVMFuzzerTestOneInput")
    public func engageFuzzTestOneInput(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> CInt {
        selected.runBlocking(Data(bytes: bytes, count: count))
        return 0
    }
#else
    @main
    enum EngageFuzzReplay {
        static func main() async {
            let arguments = Array(CommandLine.arguments.dropFirst())
            guard let name = arguments.first, let target = FuzzTarget(rawValue: name), arguments.count > 1 else {
                let names = FuzzTarget.allCases.map(\.rawValue).joined(separator: "|")
                FileHandle.standardError.write(Data("usage: engage-fuzz <\(names)> <file or folder>...\n".utf8))
                exit(2)
            }
            var count = 0
            for path in arguments.dropFirst() {
                for file in files(at: URL(fileURLWithPath: path)) {
                    guard let data = try? Data(contentsOf: file) else { continue }
                    await target.run(data)
                    count += 1
                }
            }
            FileHandle.standardError.write(Data("\(target.rawValue): \(count) inputs replayed, none crashed\n".utf8))
        }

        static func files(at url: URL) -> [URL] {
            let contents = try? FileManager.default.contentsOfDirectory(at: url, includingPropertiesForKeys: nil)
            return contents.map { $0.sorted { $0.path < $1.path } } ?? [url]
        }
    }
#endif
