/// Serial API function ids the emulated stick knows (names as in OpenZWave's Defs.h).
public enum SerialFunction {
    // The function ids, each named as in OpenZWave's Defs.h (FUNC_ID_…).
    public static let getInitData: UInt8 = 0x02
    public static let applicationNodeInformation: UInt8 = 0x03
    public static let applicationCommandHandler: UInt8 = 0x04
    public static let getControllerCapabilities: UInt8 = 0x05
    public static let setTimeouts: UInt8 = 0x06
    public static let getCapabilities: UInt8 = 0x07
    public static let softReset: UInt8 = 0x08
    public static let serialAPISetup: UInt8 = 0x0B
    public static let sendData: UInt8 = 0x13
    public static let getVersion: UInt8 = 0x15
    public static let getRandom: UInt8 = 0x1C
    public static let memoryGetID: UInt8 = 0x20
    public static let getNodeProtocolInfo: UInt8 = 0x41
    public static let applicationUpdate: UInt8 = 0x49
    public static let addNodeToNetwork: UInt8 = 0x4A
    public static let removeNodeFromNetwork: UInt8 = 0x4B
    public static let assignReturnRoute: UInt8 = 0x46
    public static let deleteReturnRoute: UInt8 = 0x47
    public static let requestNodeNeighborUpdate: UInt8 = 0x48
    public static let getSUCNodeID: UInt8 = 0x56
    public static let requestNodeInfo: UInt8 = 0x60
    public static let removeFailedNodeID: UInt8 = 0x61
    public static let isFailedNode: UInt8 = 0x62
    public static let getRoutingInfo: UInt8 = 0x80

    /// The functions this stick answers; advertised in the SERIAL_API_GET_CAPABILITIES mask.
    /// 0x52/0x54 (SUC setup) are left out on purpose: the stick reports itself as SUC already.
    public static let supported: [UInt8] = [
        getInitData, applicationNodeInformation, applicationCommandHandler, getControllerCapabilities,
        setTimeouts, getCapabilities, serialAPISetup, sendData, getVersion, getRandom, memoryGetID,
        getNodeProtocolInfo, applicationUpdate, addNodeToNetwork, removeNodeFromNetwork, getSUCNodeID,
        requestNodeInfo, isFailedNode, getRoutingInfo, assignReturnRoute, deleteReturnRoute,
        requestNodeNeighborUpdate, removeFailedNodeID,
    ]

    /// The 32-byte function mask: bit (f-1) set for each supported function f, except those `left` out.
    public static func mask(without left: Set<UInt8> = []) -> [UInt8] {
        var mask = [UInt8](repeating: 0, count: 32)
        for f in supported where f > 0 && !left.contains(f) {
            let bit = Int(f) - 1
            mask[bit / 8] |= UInt8(1) << UInt8(bit % 8)
        }
        return mask
    }

    /// A short name for traces.
    public static func name(_ f: UInt8) -> String {
        switch f {
        case getInitData: "GET_INIT_DATA"
        case applicationNodeInformation: "APPL_NODE_INFORMATION"
        case applicationCommandHandler: "APPLICATION_COMMAND_HANDLER"
        case getControllerCapabilities: "GET_CONTROLLER_CAPABILITIES"
        case setTimeouts: "SET_TIMEOUTS"
        case getCapabilities: "GET_CAPABILITIES"
        case softReset: "SOFT_RESET"
        case serialAPISetup: "SERIAL_API_SETUP"
        case sendData: "SEND_DATA"
        case getVersion: "GET_VERSION"
        case getRandom: "GET_RANDOM"
        case memoryGetID: "MEMORY_GET_ID"
        case getNodeProtocolInfo: "GET_NODE_PROTOCOL_INFO"
        case applicationUpdate: "APPLICATION_UPDATE"
        case addNodeToNetwork: "ADD_NODE_TO_NETWORK"
        case removeNodeFromNetwork: "REMOVE_NODE_FROM_NETWORK"
        case getSUCNodeID: "GET_SUC_NODE_ID"
        case requestNodeInfo: "REQUEST_NODE_INFO"
        case isFailedNode: "IS_FAILED_NODE"
        case assignReturnRoute: "ASSIGN_RETURN_ROUTE"
        case deleteReturnRoute: "DELETE_RETURN_ROUTE"
        case requestNodeNeighborUpdate: "REQUEST_NODE_NEIGHBOR_UPDATE"
        case removeFailedNodeID: "REMOVE_FAILED_NODE_ID"
        case getRoutingInfo: "GET_ROUTING_INFO"
        default: "FUNC_\(hex([f]))"
        }
    }
}
