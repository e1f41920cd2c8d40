/*
 * cec_shim.h: the work-arounds of libcec 6 the bridge carries (LibCECWorkarounds.cpp), and the C API that
 * reports them. The libcec API itself comes from the CCEC module (libcec/cecc.h).
 */
#ifndef CEC_SHIM_H
#define CEC_SHIM_H

#include <stdbool.h>
#include <stdint.h>

#ifdef __cplusplus
extern "C" {
#endif

/**
 * Whether libcec's adapter ping thread runs the shim's waiting loop: the executable's
 * CEC::CAdapterPingThread::Process and CEC::CAdapterEepromWriteThread::Stop are the ones libcec calls, and
 * libcec's own definitions were found to fall back on.
 */
bool cec_ping_thread_interposed(void);

/** How many of libcec's ping threads ran the waiting loop (the others ran libcec's own, after a failed check). */
uint64_t cec_ping_threads_replaced(void);

/** How many keepalive pings the waiting loops sent to adapters, answered or not. */
uint64_t cec_keepalive_pings(void);

/** How many waiting loops ended while their connection was closing (libcec's close ended their wait). */
uint64_t cec_ping_loops_closed(void);

/**
 * The keepalive interval of the waiting loops in milliseconds (libcec's own: 15000, the default). Applies from
 * the next wait on. For tests.
 */
void cec_set_keepalive_interval_ms(uint32_t milliseconds);

#ifdef __cplusplus
}
#endif

#endif
