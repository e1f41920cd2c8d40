/*
 * zwave_shim.h: a pure C API over OpenZWave 1.6 (Options, Manager, Log), usable from Swift.
 *
 * Rules:
 * - OpenZWave's Manager and Options are process-wide singletons. zw_manager_create fails with
 *   ZW_ERR_ALREADY_EXISTS while a manager created by this shim (or anyone else) exists.
 * - No C++ exception crosses this API: every call returns a zw_status. After a failure,
 *   zw_last_error() gives a message for the calling thread (the OZW exception text, or which call failed).
 * - Callbacks (notifications, log lines) run on OpenZWave's threads (the driver thread, or the thread
 *   that calls zw_remove_driver / zw_manager_destroy). The data is only valid during the call: copy it.
 *   Never call back into the manager's driver-removal or destroy functions from inside a callback.
 */
#ifndef ZWAVE_SHIM_H
#define ZWAVE_SHIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/** Result of every call. */
typedef enum zw_status {
    ZW_OK = 0,
    ZW_ERR_ALREADY_EXISTS = 1,   /**< a Manager already exists in this process (singleton) */
    ZW_ERR_NO_MANAGER = 2,       /**< the handle is NULL or was destroyed */
    ZW_ERR_INVALID_ARGUMENT = 3, /**< NULL pointer, empty path, value out of range */
    ZW_ERR_CONFIG_PATH = 4,      /**< the config path is not a directory */
    ZW_ERR_USER_PATH = 5,        /**< the user path is not a writable directory */
    ZW_ERR_OPTIONS = 6,          /**< Options::Create/Lock failed */
    ZW_ERR_FAILED = 7,           /**< the OpenZWave call returned false (unknown node, busy, ...) */
    ZW_ERR_INVALID_HOMEID = 8,   /**< OZWException INVALID_HOMEID (no driver with this home id) */
    ZW_ERR_INVALID_VALUEID = 9,  /**< OZWException INVALID_VALUEID (no such value) */
    ZW_ERR_CANNOT_CONVERT = 10,  /**< OZWException CANNOT_CONVERT_VALUEID (wrong type for the value) */
    ZW_ERR_INVALID_NODEID = 11,  /**< OZWException INVALID_NODEID */
    ZW_ERR_SECURITY = 12,        /**< OZWException SECURITY_FAILED */
    ZW_ERR_EXCEPTION = 13,       /**< another OZWException or std::exception */
    ZW_ERR_UNKNOWN_EXCEPTION = 14, /**< a non-std exception */
    ZW_ERR_TYPE_MISMATCH = 15    /**< the value id's type does not fit the accessor */
} zw_status;

/** OpenZWave's LogLevel, same numbers. Lower is more severe. */
typedef enum zw_log_level {
    ZW_LOG_INVALID = 0,
    ZW_LOG_NONE = 1,
    ZW_LOG_ALWAYS = 2,
    ZW_LOG_FATAL = 3,
    ZW_LOG_ERROR = 4,
    ZW_LOG_WARNING = 5,
    ZW_LOG_ALERT = 6,
    ZW_LOG_INFO = 7,
    ZW_LOG_DETAIL = 8,
    ZW_LOG_DEBUG = 9,
    ZW_LOG_STREAM_DETAIL = 10,
    ZW_LOG_INTERNAL = 11
} zw_log_level;

/** OpenZWave's Notification::NotificationType, same numbers. */
typedef enum zw_notification_type {
    ZW_NOTE_VALUE_ADDED = 0,
    ZW_NOTE_VALUE_REMOVED = 1,
    ZW_NOTE_VALUE_CHANGED = 2,
    ZW_NOTE_VALUE_REFRESHED = 3,
    ZW_NOTE_GROUP = 4,
    ZW_NOTE_NODE_NEW = 5,
    ZW_NOTE_NODE_ADDED = 6,
    ZW_NOTE_NODE_REMOVED = 7,
    ZW_NOTE_NODE_PROTOCOL_INFO = 8,
    ZW_NOTE_NODE_NAMING = 9,
    ZW_NOTE_NODE_EVENT = 10,
    ZW_NOTE_POLLING_DISABLED = 11,
    ZW_NOTE_POLLING_ENABLED = 12,
    ZW_NOTE_SCENE_EVENT = 13,
    ZW_NOTE_CREATE_BUTTON = 14,
    ZW_NOTE_DELETE_BUTTON = 15,
    ZW_NOTE_BUTTON_ON = 16,
    ZW_NOTE_BUTTON_OFF = 17,
    ZW_NOTE_DRIVER_READY = 18,
    ZW_NOTE_DRIVER_FAILED = 19,
    ZW_NOTE_DRIVER_RESET = 20,
    ZW_NOTE_ESSENTIAL_NODE_QUERIES_COMPLETE = 21,
    ZW_NOTE_NODE_QUERIES_COMPLETE = 22,
    ZW_NOTE_AWAKE_NODES_QUERIED = 23,
    ZW_NOTE_ALL_NODES_QUERIED_SOME_DEAD = 24,
    ZW_NOTE_ALL_NODES_QUERIED = 25,
    ZW_NOTE_NOTIFICATION = 26,
    ZW_NOTE_DRIVER_REMOVED = 27,
    ZW_NOTE_CONTROLLER_COMMAND = 28,
    ZW_NOTE_NODE_RESET = 29,
    ZW_NOTE_USER_ALERTS = 30,
    ZW_NOTE_MANUFACTURER_SPECIFIC_DB_READY = 31
} zw_notification_type;

/** Notification::NotificationCode (for ZW_NOTE_NOTIFICATION). */
typedef enum zw_notification_code {
    ZW_CODE_MSG_COMPLETE = 0,
    ZW_CODE_TIMEOUT = 1,
    ZW_CODE_NO_OPERATION = 2,
    ZW_CODE_AWAKE = 3,
    ZW_CODE_SLEEP = 4,
    ZW_CODE_DEAD = 5,
    ZW_CODE_ALIVE = 6
} zw_notification_code;

/** ValueID::ValueType, same numbers. */
typedef enum zw_value_type {
    ZW_VALUE_BOOL = 0,
    ZW_VALUE_BYTE = 1,
    ZW_VALUE_DECIMAL = 2,
    ZW_VALUE_INT = 3,
    ZW_VALUE_LIST = 4,
    ZW_VALUE_SCHEDULE = 5,
    ZW_VALUE_SHORT = 6,
    ZW_VALUE_STRING = 7,
    ZW_VALUE_BUTTON = 8,
    ZW_VALUE_RAW = 9,
    ZW_VALUE_BITSET = 10
} zw_value_type;

/** A ValueID taken apart. `id` is ValueID::GetId(); (home_id, id) identify the value completely. */
typedef struct zw_value_id {
    uint32_t home_id;
    uint64_t id;
    uint8_t node_id;
    uint8_t genre;          /**< 0 basic, 1 user, 2 config, 3 system */
    uint8_t command_class;
    uint8_t instance;
    uint16_t index;
    uint8_t type;           /**< zw_value_type */
} zw_value_id;

#define ZW_TEXT_LABEL 96
#define ZW_TEXT_UNITS 32
#define ZW_TEXT_VALUE 192

/** The current value of a value id, pre-read in the watcher (for value notifications). */
typedef struct zw_value_snapshot {
    bool valid;             /**< false when the value could not be read (e.g. ValueRemoved) */
    bool read_only;
    bool bool_value;        /**< bool (and bitset/button: pressed) */
    int32_t int_value;      /**< byte, short, int; list: the selected item's value */
    double double_value;    /**< decimal (parsed from the value's exact string); also set for integers */
    uint8_t precision;      /**< decimal places of a decimal value */
    char string_value[ZW_TEXT_VALUE]; /**< the value as text (list: the selected item's label); truncated */
    char label[ZW_TEXT_LABEL];        /**< truncated */
    char units[ZW_TEXT_UNITS];        /**< truncated */
} zw_value_snapshot;

/** One notification, copied out of OpenZWave::Notification. Valid only during the callback. */
typedef struct zw_notification {
    int type;                   /**< zw_notification_type */
    uint32_t home_id;
    uint8_t node_id;
    zw_value_id value_id;       /**< meaningful for value notifications */
    zw_value_snapshot value;    /**< pre-read for ValueAdded/Changed/Refreshed */
    uint8_t event;              /**< NodeEvent: the Basic value; ControllerCommand: the controller state */
    uint8_t notification_code;  /**< Notification: zw_notification_code; ControllerCommand: controller error */
    uint8_t command;            /**< ControllerCommand: the Driver::ControllerCommand */
    uint8_t scene_id;           /**< SceneEvent */
    uint8_t group_index;        /**< Group */
    uint8_t byte;               /**< the raw byte (Notification::GetByte) */
    int user_alert;             /**< UserAlerts: Notification::UserAlertNotification */
} zw_notification;

/** Watcher callback: runs on an OpenZWave thread. `context` is the pointer given to zw_manager_create. */
typedef void (*zw_notification_fn)(const zw_notification *notification, void *context);
/** Log callback: one formatted line (no newline). Runs on the logging thread, under OZW's log mutex. */
typedef void (*zw_log_fn)(int level, uint8_t node_id, const char *line, void *context);

/** Options for the manager. Fill with zw_options_init, then change what you need. */
typedef struct zw_options {
    const char *config_path;    /**< OpenZWave's device database, e.g. /etc/openzwave (must exist) */
    const char *user_path;      /**< writable directory: ozwcache_<home>.xml, zwscene.xml (must exist) */
    int log_level;              /**< lines at this level or more severe reach log_fn (SaveLogLevel); ZW_LOG_NONE: none */
    int queue_log_level;        /**< lines kept in memory and dumped when dump_trigger_level is hit (QueueLogLevel) */
    int dump_trigger_level;     /**< DumpTriggerLevel; ZW_LOG_NONE: never dump */
    bool save_configuration;    /**< SaveConfiguration: write the cache when a driver is removed */
    int32_t poll_interval_ms;   /**< PollInterval (nothing is polled unless asked; default 30000) */
    int32_t retry_timeout_ms;   /**< RetryTimeout: wait for a response/callback/report (default 10000) */
    int32_t driver_max_attempts;/**< DriverMaxAttempts to open the port, 0 = forever (default 0) */
    bool associate;             /**< Associate: put the controller into each node's lifeline (default true) */
    bool auto_update_config;    /**< AutoUpdateConfigFile: download newer device files (default false) */
    const char *network_key;    /**< NetworkKey (S0): 16 bytes as `0x01,0x02,...` (hex digits, `x`, commas only);
                                     NULL or empty: none, `secure` inclusion cannot work. Never logged by the shim. */
} zw_options;

/** Fills `options` with the defaults documented on each field (paths NULL). */
void zw_options_init(zw_options *options);

/** The manager (an opaque handle over the process-wide OpenZWave::Manager). */
typedef struct zw_manager zw_manager;

/**
 * Creates Options (paths, the options above as OpenZWave's command line, which wins over options.xml),
 * locks them, creates the Manager, routes the log into `log_fn` (no log file stays behind, nothing on
 * the console) and adds the watcher. Fails with ZW_ERR_ALREADY_EXISTS if a Manager exists.
 * `notification_fn` and `log_fn` may be NULL. `context` is passed to both and must stay valid until
 * zw_manager_destroy returns.
 */
zw_status zw_manager_create(const zw_options *options, zw_notification_fn notification_fn, zw_log_fn log_fn,
                            void *context, zw_manager **out_manager);

/** Removes the watcher, destroys the Manager (which removes any drivers, saving their cache) and the
 *  Options. Callbacks may run on the calling thread until it returns; none after. Frees the handle. */
zw_status zw_manager_destroy(zw_manager *manager);

/** Whether an OpenZWave Manager exists in this process. */
bool zw_manager_exists(void);

/** The message of the last failure on this thread (empty if none). Valid until the next shim call. */
const char *zw_last_error(void);

/* ---- Drivers ---- */
/** Manager::AddDriver(path, serial). ZW_ERR_FAILED if a driver for the path exists. */
zw_status zw_add_driver(zw_manager *manager, const char *port_path);
/** Manager::RemoveDriver(path). Blocks until the driver thread stopped. ZW_ERR_FAILED if not found.
 *  A driver still starting (added, neither DriverReady nor DriverFailed yet) is removed once its start ended, or
 *  after 3 s: OpenZWave 1.6 cannot remove a starting driver that the stick answers meanwhile (a use-after-free
 *  in Manager::RemoveDriver). zw_manager_destroy waits the same way for every starting driver. */
zw_status zw_remove_driver(zw_manager *manager, const char *port_path);
/** Manager::WriteConfig: saves ozwcache_<home>.xml now. */
zw_status zw_write_config(zw_manager *manager, uint32_t home_id);

/* ---- Library patches (LibraryPatches.cpp) ----
 * Written against OpenZWave ZW_PATCHES_WRITTEN_FOR and applied only while zw_set_library_patches(true) is in force
 * (process-wide; off at start): the driver turns them on only when zw_library_version reports that version. Off,
 * OpenZWave runs as shipped (the replaced functions forward to the library's own at once). */
#define ZW_PATCHES_WRITTEN_FOR "1.6.1914"
/** The version the patches were written against (ZW_PATCHES_WRITTEN_FOR). */
const char *zw_patches_written_for(void);
/** The running libopenzwave's version, from the library itself (Manager::getVersionAsString, e.g. "1.6.1914"). */
zw_status zw_library_version(char *buffer, size_t size);
void zw_set_library_patches(bool applied);
bool zw_library_patches(void);
/* Deferred network-cache writes (a patch). OpenZWave 1.6 rewrites the whole cache (ozwcache_<home>.xml) each time a
 * node's queries complete: N full writes for N nodes during one start, on the driver thread that also serves the
 * serial port. While deferred (process-wide) and the patches applied, the writes OpenZWave starts itself are skipped
 * and counted; zw_write_config always writes (and then trims the heap: malloc_trim). Works only when this
 * executable's definition of OpenZWave::Driver::WriteCache is the one libopenzwave binds to
 * (zw_cache_writes_interposed). */
void zw_set_cache_writes_deferred(bool deferred);
bool zw_cache_writes_deferred(void);
/* Whether libopenzwave's calls of Driver::WriteCache reach the shim (the executable exports the symbol) and the
 * library's own definition was found to forward to. */
bool zw_cache_writes_interposed(void);
/* Cache writes done (any caller) and skipped (OpenZWave's own, while deferred) since the process started. */
void zw_cache_write_counts(uint64_t *written, uint64_t *skipped);
/* Node cache copies (a patch). OpenZWave 1.6 keeps a copy of each node's <Node> element from the network cache for
 * the node's lifetime, but
 * reads it only while the node is at QueryStage_CacheLoad, which it never returns to once past it. Frees the copies
 * of the nodes past that stage (under the driver's node lock, as cache writes hold it), and none before the stick's
 * init data is handled; *out_released (may be NULL) gets how many. ZW_ERR_FAILED, freeing nothing, if the id or
 * query stage of any node holding a copy, read through the headers, disagrees with the library's own answer (a
 * layout mismatch). Frees nothing (ZW_OK, 0) while the patches are not applied. */
zw_status zw_release_node_cache_copies(zw_manager *manager, uint32_t home_id, uint32_t *out_released);
/* Node cache copies freed by zw_release_node_cache_copies since the process started. */
uint64_t zw_node_cache_copies_released(void);
/* User commands first (a patch): while the patches are applied, the messages of a value Set (zw_value_set_*) go on a queue OpenZWave's driver thread serves
 * before the Send queue, where the Gets of OpenZWave's own queries (start-up, refreshes) wait, so a Set waits at
 * most for the transaction in flight. Works only when this executable's definition of OpenZWave::Driver::SendMsg is
 * the one libopenzwave binds to (zw_send_msg_interposed). */
bool zw_send_msg_interposed(void);
/* Messages of value Sets moved ahead of the Send queue since the process started. */
uint64_t zw_user_commands_promoted(void);
/** Manager::GetSendQueueCount: messages waiting in all the driver's send queues. */
zw_status zw_send_queue_count(zw_manager *manager, uint32_t home_id, int32_t *out_count);

/* ---- Values ---- */
/** Reads the value, its label, units, precision and read-only flag (Manager::GetValueAs*, GetValueLabel...). */
zw_status zw_value_read(zw_manager *manager, const zw_value_id *value_id, zw_value_snapshot *out_snapshot);

/** Manager::SetValue(bool). Bool values. */
zw_status zw_value_set_bool(zw_manager *manager, const zw_value_id *value_id, bool value);
/** Manager::SetValue(uint8). Byte values. */
zw_status zw_value_set_byte(zw_manager *manager, const zw_value_id *value_id, uint8_t value);
/** Manager::SetValue(int16). Short values. */
zw_status zw_value_set_short(zw_manager *manager, const zw_value_id *value_id, int16_t value);
/** Manager::SetValue(int32). Int values. */
zw_status zw_value_set_int(zw_manager *manager, const zw_value_id *value_id, int32_t value);
/** Manager::SetValue(float). Decimal values. */
zw_status zw_value_set_decimal(zw_manager *manager, const zw_value_id *value_id, double value);
/** Manager::SetValueListSelection(label). List values. */
zw_status zw_value_set_list_label(zw_manager *manager, const zw_value_id *value_id, const char *label);
/** List values by item value: looks the label up (GetValueListValues/Items) and selects it. */
zw_status zw_value_set_list_value(zw_manager *manager, const zw_value_id *value_id, int32_t value);
/** Manager::SetValue(string). String values (or any type OZW can parse from text). */
zw_status zw_value_set_string(zw_manager *manager, const zw_value_id *value_id, const char *value);
/** Manager::GetValueListValues: the item values a list offers (a Notification type's events), at most `capacity` of
 *  them copied to `out_values`; `out_count` is how many the list has. */
zw_status zw_value_list_values(zw_manager *manager, const zw_value_id *value_id, int32_t *out_values, size_t capacity,
                               size_t *out_count);
/** Manager::GetValueMin/GetValueMax: the range the device database (or the library) declares for a value, both 0
 *  when none is declared (a thermostat setpoint's 8-28 °C from its product's configuration file). */
zw_status zw_value_range(zw_manager *manager, const zw_value_id *value_id, int32_t *out_min, int32_t *out_max);
/** Manager::RefreshValue: asks the node for the current value. */
zw_status zw_value_refresh(zw_manager *manager, const zw_value_id *value_id);

/** Manager::SetConfigParam(home, node, param, value, size 1/2/4). */
zw_status zw_set_config_param(zw_manager *manager, uint32_t home_id, uint8_t node_id, uint8_t param,
                              int32_t value, uint8_t size);
/** Manager::RequestConfigParam: the answer arrives as a value notification (genre config, index = param). */
zw_status zw_request_config_param(zw_manager *manager, uint32_t home_id, uint8_t node_id, uint8_t param);

/* ---- Nodes ---- */
typedef enum zw_node_text {
    ZW_NODE_MANUFACTURER_NAME = 0,
    ZW_NODE_PRODUCT_NAME = 1,
    ZW_NODE_MANUFACTURER_ID = 2,
    ZW_NODE_PRODUCT_TYPE = 3,
    ZW_NODE_PRODUCT_ID = 4,
    ZW_NODE_TYPE = 5,
    ZW_NODE_QUERY_STAGE = 6,
    ZW_NODE_NAME = 7,
    ZW_NODE_LOCATION = 8
} zw_node_text;

/** One of the node's strings (Manager::GetNodeManufacturerName, ..., GetNodeQueryStage). */
zw_status zw_node_get_text(zw_manager *manager, uint32_t home_id, uint8_t node_id, zw_node_text which,
                           char *buffer, size_t size);

typedef struct zw_node_flags {
    bool is_failed;     /**< IsNodeFailed */
    bool is_listening;  /**< IsNodeListeningDevice */
    bool is_awake;      /**< IsNodeAwake */
    bool is_frequent_listening; /**< IsNodeFrequentListeningDevice */
    bool is_zwave_plus; /**< IsNodeZWavePlus */
    bool info_received; /**< IsNodeInfoReceived */
    uint8_t generic;    /**< GetNodeGeneric: the generic device type (0x11 Multilevel Switch...), 0 while unknown */
    uint8_t specific;   /**< GetNodeSpecific: the specific device type within it */
} zw_node_flags;

zw_status zw_node_get_flags(zw_manager *manager, uint32_t home_id, uint8_t node_id, zw_node_flags *out_flags);

/** OpenZWave's counters for one node (Manager::GetNodeStatistics, Node::NodeData): frames the controller sent to it
 *  and received from it since the library started, and round-trip times. Timestamps as OpenZWave writes them. */
typedef struct zw_node_statistics {
    uint32_t sent;                  /**< m_sentCnt */
    uint32_t sent_failed;           /**< m_sentFailed */
    uint32_t retries;               /**< m_retries */
    uint32_t received;              /**< m_receivedCnt */
    uint32_t received_duplicates;   /**< m_receivedDups */
    uint32_t received_unsolicited;  /**< m_receivedUnsolicited */
    uint32_t last_request_rtt_ms;   /**< m_lastRequestRTT */
    uint32_t average_request_rtt_ms;/**< m_averageRequestRTT */
    uint32_t last_response_rtt_ms;  /**< m_lastResponseRTT */
    uint32_t average_response_rtt_ms; /**< m_averageResponseRTT */
    uint8_t quality;                /**< m_quality */
    char sent_at[32];               /**< m_sentTS, e.g. "2026-11-25 17:41:02:123" (empty: never); truncated */
    char received_at[32];           /**< m_receivedTS; truncated */
    bool route_reported;            /**< m_txStatusReportSupported: the stick reports the fields below */
    uint8_t hops;                   /**< m_hops: repeaters of the last transmission */
    char rssi[5][8];                /**< m_rssi_1..5 as OpenZWave writes them (dBm, or a word for a special value) */
    uint8_t route_used[4];          /**< m_routeUsed: the repeaters' node ids (0: none) */
    uint8_t last_failed_link_from;  /**< m_lastFailedLinkFrom (0: none) */
    uint8_t last_failed_link_to;    /**< m_lastFailedLinkTo */
} zw_node_statistics;

zw_status zw_node_get_statistics(zw_manager *manager, uint32_t home_id, uint8_t node_id, zw_node_statistics *out);

/** The driver's counters (Manager::GetDriverStatistics, Driver::DriverData) since the library started. */
typedef struct zw_driver_statistics {
    uint32_t sof;              /**< m_SOFCnt: frames started */
    uint32_t ack_waiting;      /**< m_ACKWaiting: unsolicited frames while waiting for an ACK */
    uint32_t read_aborts;      /**< m_readAborts: reads aborted by a timeout */
    uint32_t bad_checksum;     /**< m_badChecksum */
    uint32_t read;             /**< m_readCnt: frames read */
    uint32_t written;          /**< m_writeCnt: frames written */
    uint32_t can;              /**< m_CANCnt */
    uint32_t nak;              /**< m_NAKCnt */
    uint32_t ack;              /**< m_ACKCnt */
    uint32_t out_of_frame;     /**< m_OOFCnt */
    uint32_t dropped;          /**< m_dropped: messages given up */
    uint32_t retries;          /**< m_retries */
    uint32_t unexpected_callbacks; /**< m_callbacks */
    uint32_t bad_routes;       /**< m_badroutes */
    uint32_t no_ack;           /**< m_noack: transmissions the node did not acknowledge */
    uint32_t network_busy;     /**< m_netbusy */
    uint32_t not_idle;         /**< m_notidle */
    uint32_t non_delivery;     /**< m_nondelivery */
    uint32_t routed_busy;      /**< m_routedbusy */
    uint32_t broadcast_read;   /**< m_broadcastReadCnt */
    uint32_t broadcast_written; /**< m_broadcastWriteCnt */
} zw_driver_statistics;

zw_status zw_driver_get_statistics(zw_manager *manager, uint32_t home_id, zw_driver_statistics *out);

/** Manager::TestNetworkNode: queues `count` NoOperation frames to the node. Each one's end (acknowledged or not)
 *  arrives as a ZW_NOTE_NOTIFICATION with ZW_CODE_NO_OPERATION, after the node's statistics counted it. */
zw_status zw_test_network_node(zw_manager *manager, uint32_t home_id, uint8_t node_id, uint32_t count);

/* ---- Controller commands (results arrive as ZW_NOTE_CONTROLLER_COMMAND) ---- */
zw_status zw_add_node(zw_manager *manager, uint32_t home_id, bool secure);   /**< Manager::AddNode */
zw_status zw_remove_node(zw_manager *manager, uint32_t home_id);            /**< Manager::RemoveNode */
zw_status zw_cancel_controller_command(zw_manager *manager, uint32_t home_id); /**< CancelControllerCommand */
zw_status zw_heal_network(zw_manager *manager, uint32_t home_id, bool do_return_routes); /**< HealNetwork */
zw_status zw_heal_network_node(zw_manager *manager, uint32_t home_id, uint8_t node_id,
                               bool do_return_routes);                      /**< HealNetworkNode */
zw_status zw_remove_failed_node(zw_manager *manager, uint32_t home_id, uint8_t node_id); /**< RemoveFailedNode */
zw_status zw_refresh_node_info(zw_manager *manager, uint32_t home_id, uint8_t node_id);  /**< RefreshNodeInfo */
/** SendRawData: queues a SEND_DATA to `node_id`; `command` is the SEND_DATA payload up to the transmit
 *  options: node id, length, then the command class bytes. The node's answer arrives as a normal report.
 *  `user_command`: a user's command, queued before OpenZWave's background queries like a value Set. */
zw_status zw_send_raw(zw_manager *manager, uint32_t home_id, uint8_t node_id, const uint8_t *command, uint8_t length,
                      bool user_command);

/* ---- Associations (Associations.cpp) ---- */
/** One member of an association group: a node, or one endpoint of it (endpoint 0: the node itself). */
typedef struct zw_association {
    uint8_t node_id;
    uint8_t endpoint; /**< InstanceAssociation::m_instance */
} zw_association;

/** Manager::GetNumGroups: the node's association groups, numbered 1...count. */
zw_status zw_get_num_groups(zw_manager *manager, uint32_t home_id, uint8_t node_id, uint8_t *out_count);
/** Manager::GetGroupLabel (truncated, always terminated). */
zw_status zw_get_group_label(zw_manager *manager, uint32_t home_id, uint8_t node_id, uint8_t group, char *buffer,
                             size_t size);
/** Manager::GetMaxAssociations. */
zw_status zw_get_max_associations(zw_manager *manager, uint32_t home_id, uint8_t node_id, uint8_t group,
                                  uint8_t *out_max);
/** Manager::GetAssociations (the InstanceAssociation form): copies up to `capacity` members into `out`;
 *  `out_count` gets how many the group has. */
zw_status zw_get_associations(zw_manager *manager, uint32_t home_id, uint8_t node_id, uint8_t group,
                              zw_association *out, size_t capacity, size_t *out_count);
/** Manager::AddAssociation: OpenZWave sends (Multi Channel) Association Set, then a Get to read the group back. */
zw_status zw_add_association(zw_manager *manager, uint32_t home_id, uint8_t node_id, uint8_t group, uint8_t target,
                             uint8_t endpoint);
/** Manager::RemoveAssociation: (Multi Channel) Association Remove, then a Get. */
zw_status zw_remove_association(zw_manager *manager, uint32_t home_id, uint8_t node_id, uint8_t group,
                                uint8_t target, uint8_t endpoint);
/** Manager::GetNodeClassInformation: the version of a command class the node reported in its node information,
 *  0 when it does not support the class or its node information has not been received. */
zw_status zw_get_node_class_version(zw_manager *manager, uint32_t home_id, uint8_t node_id, uint8_t command_class,
                                    uint8_t *out_version);

#ifdef __cplusplus
}
#endif

#endif /* ZWAVE_SHIM_H */
