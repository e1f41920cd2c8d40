// The mesh: a node's neighbours from the controller's routing table, and a node's neighbour update.

#include "ShimInternal.h"
#include "zwave_shim_neighbors.h"

using namespace zwshim;

extern "C" {

zw_status zw_node_get_neighbors(zw_manager *m, uint32_t home, uint8_t node, uint8_t out[232], uint32_t *out_count) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::GetNodeNeighbors", [&] {
        ZW_REQUIRE(out != nullptr && out_count != nullptr, "out pointer is NULL");
        uint8_t *neighbors = nullptr;
        uint32_t count = m->manager->GetNodeNeighbors(home, node, &neighbors);
        uint32_t copied = 0;
        for (uint32_t i = 0; neighbors != nullptr && i < count && copied < 232; ++i) out[copied++] = neighbors[i];
        delete[] neighbors;
        *out_count = copied;
        return ZW_OK;
    });
}

zw_status zw_request_node_neighbor_update(zw_manager *m, uint32_t home, uint8_t node) {
    ZW_REQUIRE_MANAGER(m);
    return guarded("Manager::RequestNodeNeighborUpdate", [&] {
        return boolResult("Manager::RequestNodeNeighborUpdate", m->manager->RequestNodeNeighborUpdate(home, node));
    });
}

} // extern "C"
