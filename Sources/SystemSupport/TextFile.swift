internal import FoundationEssentials

/// Why a text file could not be read, in words for an error message.
public enum TextFileError: Error, Sendable, Equatable, CustomStringConvertible {
    case noSuchFile
    case isDirectory
    case permissionDenied
    case notUTF8

    public var description: String {
        switch self {
        case .noSuchFile: "no such file"
        case .isDirectory: "it is a directory"
        case .permissionDenied: "permission denied"
        case .notUTF8: "it is not UTF-8 text"
        }
    }
}

/// The whole of a UTF-8 text file.
public func readTextFile(_ path: String) throws(TextFileError) -> String {
    let files = FileManager.default
    var isDirectory = false
    guard files.fileExists(atPath: path, isDirectory: &isDirectory) else { throw .noSuchFile }
    guard !isDirectory else { throw .isDirectory }
    guard files.isReadableFile(atPath: path), let data = files.contents(atPath: path) else { throw .permissionDenied }
    guard let text = String(data: data, encoding: .utf8) else { throw .notUTF8 }
    return text
}
