// The driver's counters and the network test (NoOperation frames to a node).

#include "ShimInternal.h"

#include "Driver.h"

using namespace zwshim;

extern "C" {

zw_status zw_driver_get_statistics(zw_manager *m, uint32_t home, zw_driver_statistics *out) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetDriverStatistics", [&] {
        ZW_REQUIRE(out != nullptr, "out pointer is NULL");
        OpenZWave::Driver::DriverData data{};
        m->manager->GetDriverStatistics(home, &data);
        out->sof = data.m_SOFCnt;
        out->ack_waiting = data.m_ACKWaiting;
        out->read_aborts = data.m_readAborts;
        out->bad_checksum = data.m_badChecksum;
        out->read = data.m_readCnt;
        out->written = data.m_writeCnt;
        out->can = data.m_CANCnt;
        out->nak = data.m_NAKCnt;
        out->ack = data.m_ACKCnt;
        out->out_of_frame = data.m_OOFCnt;
        out->dropped = data.m_dropped;
        out->retries = data.m_retries;
        out->unexpected_callbacks = data.m_callbacks;
        out->bad_routes = data.m_badroutes;
        out->no_ack = data.m_noack;
        out->network_busy = data.m_netbusy;
        out->not_idle = data.m_notidle;
        out->non_delivery = data.m_nondelivery;
        out->routed_busy = data.m_routedbusy;
        out->broadcast_read = data.m_broadcastReadCnt;
        out->broadcast_written = data.m_broadcastWriteCnt;
        return ZW_OK;
    });
}

zw_status zw_test_network_node(zw_manager *m, uint32_t home, uint8_t node, uint32_t count) {
    ZW_REQUIRE_MANAGER(m);
    if (count == 0) return ZW_ERR_INVALID_ARGUMENT;
    return guarded("Manager::TestNetworkNode", [&] {
        m->manager->TestNetworkNode(home, node, count);
        return ZW_OK;
    });
}

} // extern "C"
