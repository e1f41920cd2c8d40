import Foundation
public import LabSupport
public import TestSupport

/// A throw-away certificate authority made with `openssl` (P-256 keys, valid one day) and a server
/// certificate for 127.0.0.1/localhost signed by it, for TLS tests.
public struct TestCertificateAuthority: Sendable {
    /// CA certificate (PEM): clients trust the broker with it.
    public let caFile: String
    /// Server certificate (PEM, SAN IP:127.0.0.1, DNS:localhost) and its key.
    public let serverCertFile: String
    public let serverKeyFile: String

    /// Generates the files into `directory` under names starting with `name`.
    public static func make(in directory: TemporaryDirectory, name: String = "test") async throws
        -> TestCertificateAuthority
    {
        guard let openssl = ChildProcess.locate("openssl") else {
            throw TestSupportError("openssl not found: install it with `apt-get install openssl`")
        }
        let caKey = directory.file("\(name)-ca.key")
        let caFile = directory.file("\(name)-ca.crt")
        let serverKey = directory.file("\(name)-server.key")
        let serverRequest = directory.file("\(name)-server.csr")
        let serverCert = directory.file("\(name)-server.crt")
        let extensions = try directory.write(
            "\(name)-server.ext",
            "subjectAltName=IP:127.0.0.1,DNS:localhost\nbasicConstraints=CA:FALSE\n")
        let curve = ["-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"]
        try await ChildProcess.run(
            openssl,
            ["req", "-x509"] + curve + [
                "-keyout", caKey, "-out", caFile, "-days", "1", "-subj", "/CN=thuis test CA \(name)",
            ])
        try await ChildProcess.run(
            openssl,
            ["req"] + curve + [
                "-keyout", serverKey, "-out", serverRequest, "-subj", "/CN=127.0.0.1",
            ])
        try await ChildProcess.run(
            openssl,
            [
                "x509", "-req", "-in", serverRequest, "-CA", caFile, "-CAkey", caKey, "-CAcreateserial",
                "-out", serverCert, "-days", "1", "-extfile", extensions,
            ])
        return TestCertificateAuthority(caFile: caFile, serverCertFile: serverCert, serverKeyFile: serverKey)
    }

    /// The broker TLS settings for this CA's server certificate.
    public var brokerFiles: MosquittoBroker.TLSFiles {
        MosquittoBroker.TLSFiles(caFile: caFile, certFile: serverCertFile, keyFile: serverKeyFile)
    }
}
