// libFuzzer target `dashboard-access`: who may see a dashboard request: its path, query (`?token=`), Authorization,
// cookies, Host and Origin, as a remote browser sends them (the input's lines, in that order). A request that carries
// neither token is never allowed beyond loopback; the control token never gets the admin role.
import BridgeCore
import WebDashboard

private let admin = "admin-token-0123456789abcdef"
private let control = "control-token-0123456789abcd"
private let access = DashboardAccess(
    admin: try? DashboardToken(text: admin), control: try? DashboardToken(text: control))

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzOneInput(_ data: UnsafePointer<UInt8>?, _ size: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: data == nil ? 0 : size))
    let text = String(decoding: bytes, as: UTF8.self)
    let lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    func line(_ index: Int) -> String? { index < lines.count && !lines[index].isEmpty ? lines[index] : nil }
    let request = DashboardAccess.Request(
        path: line(0) ?? "/", query: line(1), authorization: line(2), cookies: line(3).map { [$0] } ?? [],
        host: line(4), origin: line(5), upgrade: bytes.first.map { $0 & 1 == 1 } ?? false)
    let carriesAdmin = text.contains(admin)
    let carriesControl = text.contains(control)
    switch access.decide(request) {
    case .allowed(.admin):
        precondition(carriesAdmin, "admin without the admin token")
    case .allowed(.control):
        precondition(carriesControl || carriesAdmin, "control without a token")
    case .redirect, .unauthorized, .forbidden:
        break
    }
    return 0
}
