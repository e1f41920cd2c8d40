// Nodes: what OpenZWave knows about a node (texts, flags), re-interviewing it, and raw frames to it.

#include "ShimInternal.h"

#include "Node.h"

#include <cstring>

using OpenZWave::Manager;
using namespace zwshim;

extern "C" {

zw_status zw_node_get_text(zw_manager *m, uint32_t home, uint8_t node, zw_node_text which, char *buffer,
                           size_t size) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetNode*", [&] {
        ZW_REQUIRE(buffer != nullptr && size > 0, "buffer is NULL");
        Manager *mg = m->manager;
        std::string text;
        switch (which) {
        case ZW_NODE_MANUFACTURER_NAME: text = mg->GetNodeManufacturerName(home, node); break;
        case ZW_NODE_PRODUCT_NAME: text = mg->GetNodeProductName(home, node); break;
        case ZW_NODE_MANUFACTURER_ID: text = mg->GetNodeManufacturerId(home, node); break;
        case ZW_NODE_PRODUCT_TYPE: text = mg->GetNodeProductType(home, node); break;
        case ZW_NODE_PRODUCT_ID: text = mg->GetNodeProductId(home, node); break;
        case ZW_NODE_TYPE: text = mg->GetNodeType(home, node); break;
        case ZW_NODE_QUERY_STAGE: text = mg->GetNodeQueryStage(home, node); break;
        case ZW_NODE_NAME: text = mg->GetNodeName(home, node); break;
        case ZW_NODE_LOCATION: text = mg->GetNodeLocation(home, node); break;
        default:
            setError("unknown zw_node_text");
            return ZW_ERR_INVALID_ARGUMENT;
        }
        copyText(text, buffer, size);
        return ZW_OK;
    });
}

zw_status zw_node_get_flags(zw_manager *m, uint32_t home, uint8_t node, zw_node_flags *out) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::IsNode*", [&] {
        ZW_REQUIRE(out != nullptr, "out pointer is NULL");
        Manager *mg = m->manager;
        out->is_failed = mg->IsNodeFailed(home, node);
        out->is_listening = mg->IsNodeListeningDevice(home, node);
        out->is_awake = mg->IsNodeAwake(home, node);
        out->is_frequent_listening = mg->IsNodeFrequentListeningDevice(home, node);
        out->is_zwave_plus = mg->IsNodeZWavePlus(home, node);
        out->info_received = mg->IsNodeInfoReceived(home, node);
        out->generic = mg->GetNodeGeneric(home, node);
        out->specific = mg->GetNodeSpecific(home, node);
        return ZW_OK;
    });
}

zw_status zw_node_get_statistics(zw_manager *m, uint32_t home, uint8_t node, zw_node_statistics *out) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetNodeStatistics", [&] {
        ZW_REQUIRE(out != nullptr, "out pointer is NULL");
        OpenZWave::Node::NodeData data{};
        m->manager->GetNodeStatistics(home, node, &data);
        out->sent = data.m_sentCnt;
        out->sent_failed = data.m_sentFailed;
        out->retries = data.m_retries;
        out->received = data.m_receivedCnt;
        out->received_duplicates = data.m_receivedDups;
        out->received_unsolicited = data.m_receivedUnsolicited;
        out->last_request_rtt_ms = data.m_lastRequestRTT;
        out->average_request_rtt_ms = data.m_averageRequestRTT;
        out->last_response_rtt_ms = data.m_lastResponseRTT;
        out->average_response_rtt_ms = data.m_averageResponseRTT;
        out->quality = data.m_quality;
        copyText(data.m_sentTS, out->sent_at, sizeof out->sent_at);
        copyText(data.m_receivedTS, out->received_at, sizeof out->received_at);
        out->route_reported = data.m_txStatusReportSupported;
        out->hops = data.m_hops;
        char const *rssi[5] = {data.m_rssi_1, data.m_rssi_2, data.m_rssi_3, data.m_rssi_4, data.m_rssi_5};
        for (int i = 0; i < 5; ++i) copyText(std::string(rssi[i], strnlen(rssi[i], 8)), out->rssi[i], 8);
        for (int i = 0; i < 4; ++i) out->route_used[i] = static_cast<uint8_t>(data.m_routeUsed[i]);
        out->last_failed_link_from = data.m_lastFailedLinkFrom;
        out->last_failed_link_to = data.m_lastFailedLinkTo;
        return ZW_OK;
    });
}

zw_status zw_refresh_node_info(zw_manager *m, uint32_t home, uint8_t node) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::RefreshNodeInfo", [&] {
        return boolResult("Manager::RefreshNodeInfo", m->manager->RefreshNodeInfo(home, node));
    });
}

zw_status zw_send_raw(zw_manager *m, uint32_t home, uint8_t node, const uint8_t *command, uint8_t length,
                      bool user_command) {
    ZW_REQUIRE_MANAGER(m);
    if (command == nullptr || length == 0) return ZW_ERR_INVALID_ARGUMENT;
    return guarded("Manager::SendRawData", [&] {
        if (user_command) {
            UserCommand userCommand;
            m->manager->SendRawData(home, node, "thuis-bridge raw", 0x00, false, command, length);
            return ZW_OK;
        }
        m->manager->SendRawData(home, node, "thuis-bridge raw", 0x00, false, command, length);
        return ZW_OK;
    });
}

} // extern "C"
