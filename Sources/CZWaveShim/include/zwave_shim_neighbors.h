/* The mesh: a node's neighbours as the controller knows them, and asking a node to update them. */
#ifndef ZWAVE_SHIM_NEIGHBORS_H
#define ZWAVE_SHIM_NEIGHBORS_H

#include "zwave_shim.h"

#ifdef __cplusplus
extern "C" {
#endif

/** Manager::GetNodeNeighbors: the node ids (1-232) the controller's routing table gives as `node_id`'s neighbours,
 *  copied into `out` (room for 232) and their number into `out_count`. 0 neighbours also while the node's interview
 *  has not read them yet (OpenZWave reads them in its Neighbors query stage). */
zw_status zw_node_get_neighbors(zw_manager *manager, uint32_t home_id, uint8_t node_id, uint8_t out[232],
                                uint32_t *out_count);

/** Manager::RequestNodeNeighborUpdate: asks the node to discover its neighbours (controller command 10, progress
 *  as ZW_NOTE_CONTROLLER_COMMAND); once done OpenZWave reads the new table from the controller (GET_ROUTING_INFO). */
zw_status zw_request_node_neighbor_update(zw_manager *manager, uint32_t home_id, uint8_t node_id);

#ifdef __cplusplus
}
#endif

#endif /* ZWAVE_SHIM_NEIGHBORS_H */
